/**
 * The SDK's types are generated from sdk/openapi.json (sdk/scripts/generate.mjs); this keeps that
 * copy equal to the document the Worker serves, so the SDK cannot drift from the API.
 */
import { describe, expect, it } from "vitest";
import committed from "../../sdk/openapi.json";
import { call, expectJson } from "../helpers/api";

describe("sdk/openapi.json", () => {
  it("is the document the Worker serves (run `npm run sdk:generate` after an API change)", async () => {
    const live = await expectJson<Record<string, unknown>>(await call("GET", "/openapi.json"), 200);
    const { servers: _servers, ...document } = live;
    expect(document).toEqual(committed);
  });
});
