export { AUDIT_ACTIONS, TARGET_TYPES } from "./actions";
export { listAuditLog } from "./list";
export { audited, recordAudit } from "./record";
