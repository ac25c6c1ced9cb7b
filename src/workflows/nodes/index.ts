/** The node model (docs/webhooks.md): shared by the server and the dashboard's editor. */

export { CONCURRENCY_TEMPLATED, concurrencySchemas } from "./concurrency";
export type { Branch, NodeType } from "./models";
export {
  BRANCHES,
  branchesOf,
  DEFAULT_NAMES,
  isNodeType,
  isTriggerNode,
  NODE_MODELS,
  NODE_TYPES,
  nextKey,
} from "./models";
export { judge, layersOf } from "./problems";
export type {
  ConversationEventNode,
  WorkflowDefinition,
  WorkflowNode,
  WorkflowNote,
} from "./types";
