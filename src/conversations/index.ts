export { richWires } from "./markdown";
export { ChatMessageSchema, RatingSchema } from "./schemas";
