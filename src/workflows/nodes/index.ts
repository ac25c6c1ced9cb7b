export { nodeSchemas } from "./node-schemas";
export { DEFAULT_NAMES } from "./node-settings";
export { TEMPLATED_SETTINGS } from "./templated-settings";
export type { ConversationEventNode, NodeType, WorkflowDefinition, WorkflowNode } from "./types";
export { NODE_TYPES, TRIGGER_TYPES } from "./types";
