export { audited, recordAudit } from "./record";
