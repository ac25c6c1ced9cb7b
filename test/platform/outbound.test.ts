/**
 * The outbound policy (docs/security.md#outbound-requests): which destinations are refused, in
 * every spelling, and how redirects are followed by hand with each hop checked. The requests an
 * http_request node and an event delivery make under the deployed defaults are in
 * `*.deployed.test.ts` files.
 */
import { describe, expect, it } from "vitest";
import {
  DestinationNotAllowed,
  MAX_REDIRECTS,
  outboundFetch,
  refusedDestination,
} from "../../src/platform/outbound";

const DEPLOYED = { allowPrivate: false };
const DEVELOPMENT = { allowPrivate: true };
const refused = (url: string, policy = DEPLOYED) => refusedDestination(new URL(url), policy);

describe("the outbound policy", () => {
  it.each([
    // Loopback in every spelling the URL parser or an address takes.
    "http://127.0.0.1:8080/",
    "http://127.1/",
    "http://2130706433/",
    "http://0x7f000001/",
    "http://0x7f.1/",
    "http://0177.0.0.1/",
    "http://127.0.0.1./",
    "http://[::1]/",
    "http://[::ffff:127.0.0.1]/",
    "http://[::ffff:7f00:1]/",
    "http://[::127.0.0.1]/",
    "http://[64:ff9b::127.0.0.1]/",
    "http://[2002:7f00:1::]/",
    "http://[0:0:0:0:0:ffff:127.0.0.1]/",
    // Private, link-local (cloud metadata), CGNAT, multicast, reserved, documentation, unspecified.
    "http://10.1.2.3/",
    "http://172.16.0.1/",
    "http://192.168.1.1/",
    "http://169.254.169.254/latest/meta-data",
    "http://100.64.0.1/",
    "http://224.0.0.1/",
    "http://240.0.0.1/",
    "http://255.255.255.255/",
    "http://0.0.0.0/",
    "http://0/",
    "http://192.0.2.10/",
    "http://198.51.100.7/",
    "http://203.0.113.9/",
    "http://198.18.0.1/",
    "http://[::]/",
    "http://[fc00::1]/",
    "http://[fd12:3456::1]/",
    "http://[fe80::1]/",
    "http://[ff02::1]/",
    "http://[2001:db8::1]/",
    "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/",
    "http://[::ffff:10.0.0.1]/",
    "http://[64:ff9b:1::a00:1]/",
    // Local names.
    "http://localhost:8787/v1/manage/workflows",
    "http://LOCALHOST/",
    "http://localhost./",
    "http://api.localhost/",
    "http://printer.local/",
    "http://metadata.google.internal/computeMetadata/v1/",
    "http://router.home.arpa/",
    "http://intranet/",
  ])("refuses %s when deployed; allows it in local development", (url) => {
    expect(refused(url)).toEqual(expect.any(String));
    expect(refused(url, DEVELOPMENT)).toBeNull();
  });

  it.each([
    "https://example.com/hooks",
    "http://example.com:8080/x",
    "https://api.example.co.uk./x",
    "http://8.8.8.8/",
    "https://1.1.1.1/",
    "http://[2606:4700:4700::1111]/",
    "http://[::ffff:8.8.8.8]/",
    "http://[2002:808:808::]/",
    "https://localhost.example.com/",
    "https://internal.example.com/",
  ])("allows the public destination %s", (url) => {
    expect(refused(url)).toBeNull();
  });

  it("refuses other schemes under either policy", () => {
    for (const url of ["ftp://example.com/", "file:///etc/passwd", "data:text/plain,x"]) {
      expect(refused(url)).toMatch(/http and https/);
      expect(refused(url, DEVELOPMENT)).toMatch(/http and https/);
    }
  });
});

type Sent = { url: string; method: string; headers: Record<string, string>; body: unknown };

/** A fetch that answers from `answers` by URL and records what was sent. */
function scripted(answers: Record<string, () => Response>) {
  const sent: Sent[] = [];
  const fetchImpl = (async (url: string, init: RequestInit) => {
    sent.push({
      url,
      method: String(init.method),
      headers: { ...(init.headers as Record<string, string>) },
      body: init.body,
    });
    expect(init.redirect).toBe("manual");
    const answer = answers[url];
    return answer ? answer() : new Response("done", { status: 200 });
  }) as unknown as typeof fetch;
  return { sent, fetchImpl };
}
const redirect = (status: number, location: string) => () =>
  new Response(null, { status, headers: { location } });
const post = {
  method: "POST",
  headers: { authorization: "Bearer s3cr3t", "content-type": "application/json" },
  body: '{"a":1}',
};

describe("outboundFetch", () => {
  it("refuses a redirect into loopback before sending anything to it", async () => {
    const { sent, fetchImpl } = scripted({
      "https://public.example/start": redirect(302, "http://127.0.0.1:8787/v1/manage/workflows"),
    });
    const attempt = outboundFetch("https://public.example/start", post, DEPLOYED, 5, fetchImpl);
    await expect(attempt).rejects.toBeInstanceOf(DestinationNotAllowed);
    await expect(attempt).rejects.toThrow(/A redirect was refused/);
    expect(sent.map((request) => request.url)).toEqual(["https://public.example/start"]);
  });

  it("refuses the first URL without sending anything", async () => {
    const { sent, fetchImpl } = scripted({});
    await expect(
      outboundFetch("http://[::ffff:127.0.0.1]/", post, DEPLOYED, 5, fetchImpl),
    ).rejects.toMatchObject({ code: "destination_not_allowed" });
    expect(sent).toEqual([]);
  });

  it(`follows ${MAX_REDIRECTS} redirects and fails on one more`, async () => {
    const chain = (hops: number) =>
      Object.fromEntries(
        Array.from({ length: hops }, (_, n) => [
          `https://a.example/${n}`,
          redirect(307, `/${n + 1}`),
        ]),
      );
    const five = scripted(chain(MAX_REDIRECTS));
    const response = await outboundFetch(
      "https://a.example/0",
      post,
      DEPLOYED,
      MAX_REDIRECTS,
      five.fetchImpl,
    );
    expect(await response.text()).toBe("done");
    expect(five.sent).toHaveLength(MAX_REDIRECTS + 1);
    // 307 keeps the method and the body.
    expect(five.sent.at(-1)).toMatchObject({ method: "POST", body: '{"a":1}' });
    const six = scripted(chain(MAX_REDIRECTS + 1));
    await expect(
      outboundFetch("https://a.example/0", post, DEPLOYED, MAX_REDIRECTS, six.fetchImpl),
    ).rejects.toThrow("More than 5 redirects.");
  });

  it("turns a POST into a GET on 302 and 303, and drops credentials when the origin changes", async () => {
    const { sent, fetchImpl } = scripted({
      "https://a.example/form": redirect(303, "https://a.example/done"),
      "https://a.example/done": redirect(302, "https://b.example/elsewhere"),
    });
    await outboundFetch("https://a.example/form", post, DEPLOYED, 5, fetchImpl);
    expect(sent.map(({ url, method, body }) => [url, method, body])).toEqual([
      ["https://a.example/form", "POST", '{"a":1}'],
      ["https://a.example/done", "GET", null],
      ["https://b.example/elsewhere", "GET", null],
    ]);
    expect(sent[1]?.headers).toEqual({ authorization: "Bearer s3cr3t" });
    expect(sent[2]?.headers).toEqual({});
  });

  it("returns a redirect as it came when none are followed (event deliveries)", async () => {
    const { sent, fetchImpl } = scripted({
      "https://a.example/hooks": redirect(301, "http://127.0.0.1/"),
    });
    const response = await outboundFetch("https://a.example/hooks", post, DEPLOYED, 0, fetchImpl);
    expect(response.status).toBe(301);
    expect(sent).toHaveLength(1);
  });
});
