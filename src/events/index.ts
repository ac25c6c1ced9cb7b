export { resealEndpointSecrets } from "./endpoints";
export {
  createdDeliveries,
  enqueueDeliveries,
  eventStatements,
  RELAY_GRACE_MS,
  relayStaleDeliveries,
} from "./outbox";
