/**
 * The OpenAPI document other tools accept (docs/api/README.md): every operation and webhook has a
 * unique camelCase operationId, so generated clients get names like `createLaunch`; the document
 * names its server, its licence, and how a receiver checks the lifecycle-event webhook.
 */
import { describe, expect, it } from "vitest";
import { call, expectJson } from "../helpers/api";

type Operation = { operationId?: string; security?: Record<string, string[]>[] };
type Document = {
  servers?: { url: string }[];
  info: { license?: { name: string } };
  paths: Record<string, Record<string, Operation>>;
  webhooks: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, unknown> };
};

describe("/openapi.json", () => {
  it("gives every operation a unique camelCase operationId", async () => {
    const document = await expectJson<Document>(await call("GET", "/openapi.json"), 200);
    const operations = [document.paths, document.webhooks].flatMap((items) =>
      Object.entries(items).flatMap(([path, methods]) =>
        Object.entries(methods).map(([method, operation]) => ({
          at: `${method} ${path}`,
          id: operation.operationId,
        })),
      ),
    );
    expect(operations.length).toBeGreaterThan(50);
    expect(operations.filter((operation) => !operation.id)).toEqual([]);
    for (const { at, id } of operations) expect(id, at).toMatch(/^[a-z][a-zA-Z0-9]*$/);
    const ids = operations.map((operation) => operation.id);
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
    const byPath = Object.fromEntries(operations.map(({ at, id }) => [at, id]));
    expect(byPath["post /v1/widget/launches"]).toBe("createLaunch");
    expect(byPath["get /v1/widget/launches"]).toBe("listLaunches");
    expect(byPath["get /v1/widget/launches/{id}"]).toBe("getLaunch");
    expect(byPath["delete /v1/widget/launches/{id}"]).toBe("revokeLaunch");
  });

  it("names its server (the origin it was fetched from), its licence and the webhook's security", async () => {
    const document = await expectJson<Document>(await call("GET", "/openapi.json"), 200);
    expect(document.servers).toEqual([{ url: "https://edge.test" }]);
    expect(document.info.license?.name).toBeTruthy();
    const webhook = document.webhooks["/lifecycleEvent"]?.post;
    expect(webhook?.security).toEqual([{ webhookSignature: [] }]);
    expect(document.components.securitySchemes.webhookSignature).toMatchObject({
      type: "apiKey",
      in: "header",
      name: "webhook-signature",
    });
  });
});
