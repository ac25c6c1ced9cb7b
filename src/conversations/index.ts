export { MessageSchema } from "./schemas";
