/**
 * A webhook node's `throttle` (docs/webhooks.md#throttle): at most `limit` executions of its calls
 * start per period, per key; later calls wait in the workflow's queue instead of being refused.
 */
import { z } from "@hono/zod-openapi";
import { once } from "../../platform/once";
import { setting, wholeNumber } from "./common";

/** The most starts a throttle counts per period: its log of start times stays small. */
export const MAX_THROTTLE_LIMIT = 1_000;
const DAY = 86_400;

const throttleSchema = once(() =>
  z
    .strictObject({
      limit: wholeNumber(
        1,
        MAX_THROTTLE_LIMIT,
        "How many executions may start per period (per key).",
      ),
      periodSeconds: wholeNumber(
        1,
        DAY,
        "The period (s), sliding: at any moment, at most `limit` starts in the last period.",
      ),
      key: setting(z.string().max(500).optional(), {
        about:
          'A template over this node\'s output, such as `{{webhook_1.body.customer}}`: each key has its own limit. Default: none (all calls together, the key "").',
        example: "{{webhook_1.body.customer}}",
        code: "invalid_type",
        message: "A template over the call, at most 500 characters.",
      }),
    })
    .openapi("WebhookThrottle", {
      description:
        "At most `limit` executions of this node's calls start per `periodSeconds` (per key); later calls wait in the workflow's queue, answered `x-execution-status: queued`, and 429 queue_full past its queueLimit (docs/webhooks.md#throttle).",
    }),
);

/** A webhook node's `throttle` setting (docs/webhooks.md#throttle). */
export const throttleSetting = () => throttleSchema().optional();
