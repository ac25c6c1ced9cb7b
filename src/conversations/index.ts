export { richWires } from "./markdown";
export { ChatMessageSchema } from "./schemas";
