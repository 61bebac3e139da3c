import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { retryAfterSeconds, Vulnscan, VulnscanError, verifyWebhook, WebhookVerificationError } from "./index.js";

/** A fetch that answers from a script and records what it was sent. */
function scripted(answers: (() => Response)[]) {
  const sent: Request[] = [];
  const fetch = (async (req: Request) => {
    sent.push(req);
    const next = answers.shift();
    if (!next) throw new Error("no more answers");
    return next();
  }) as typeof globalThis.fetch;
  return { fetch, sent };
}

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}) =>
  () =>
    new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });

describe("Vulnscan (TypeScript)", () => {
  it("sends a request again after a 429 once its Retry-After has passed, with the same body and credentials", async () => {
    const { fetch, sent } = scripted([
      json(429, { detail: "slow down", error_code: "RATE_LIMIT_EXCEEDED" }, { "retry-after": "1" }),
      json(201, { id: "scan_1" }),
    ]);
    const vs = new Vulnscan({ baseUrl: "http://api.test", apiKey: "key_1", fetch });
    const t0 = Date.now();
    const scan = await vs.data(vs.api.POST("/api/v1/scans", { body: { target: "10.0.0.1", authorized: true } }));
    expect(scan).toEqual({ id: "scan_1" });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(950);
    expect(sent).toHaveLength(2);
    for (const req of sent) {
      expect(req.headers.get("x-api-key")).toBe("key_1");
      expect(await req.json()).toEqual({ target: "10.0.0.1", authorized: true });
    }
  });

  it("gives up after maxRetries and returns the error in the API's shape", async () => {
    const busy = json(503, { detail: "busy", error_code: "SERVICE_UNAVAILABLE" }, { "retry-after": "0" });
    const { fetch, sent } = scripted([busy, busy, busy]);
    const vs = new Vulnscan({ baseUrl: "http://api.test", apiKey: "k", fetch, maxRetries: 2 });
    const err = await vs.data(vs.api.GET("/api/v1/scans/quota")).catch((e) => e);
    expect(err).toBeInstanceOf(VulnscanError);
    expect(err).toMatchObject({ status: 503, errorCode: "SERVICE_UNAVAILABLE", detail: "busy" });
    expect(sent).toHaveLength(3);
  });

  it("signs in with the form, then refreshes the token before it expires", async () => {
    const { fetch, sent } = scripted([
      json(200, { access_token: "t1", token_type: "bearer", expires_in: 30 }), // under the refresh margin at once
      json(200, { access_token: "t2", token_type: "bearer", expires_in: 3600 }),
      json(200, { plan: "enterprise" }),
    ]);
    const vs = await Vulnscan.signIn({ baseUrl: "http://api.test", fetch }, { email: "a@example.test", password: "pw", mfaCode: "123456" });
    await vs.data(vs.api.GET("/api/v1/scans/quota"));
    expect(new URL(sent[0]!.url).pathname).toBe("/api/v1/auth/token");
    expect(await sent[0]!.text()).toBe("username=a%40example.test&password=pw&mfa_code=123456");
    expect(new URL(sent[1]!.url).pathname).toBe("/api/v1/auth/refresh");
    expect(sent[1]!.headers.get("authorization")).toBe("Bearer t1");
    expect(sent[2]!.headers.get("authorization")).toBe("Bearer t2");
    expect(vs.accessToken).toBe("t2");
  });

  it("follows next_cursor when a list gives one, else page up to pages", async () => {
    const { fetch, sent } = scripted([
      json(200, { items: [1, 2], page: 1, per_page: 2, pages: 3, total: 5, next_cursor: "c2" }),
      json(200, { items: [3, 4], page: 2, per_page: 2, pages: 3, total: 5, next_cursor: null }),
      json(200, { items: [5], page: 3, per_page: 2, pages: 3, total: 5, next_cursor: null }),
    ]);
    const vs = new Vulnscan({ baseUrl: "http://api.test", apiKey: "k", fetch });
    const items: unknown[] = [];
    for await (const f of vs.paginate((q) => vs.api.GET("/api/v1/findings", { params: { query: { per_page: 2, ...q } } }) as never)) items.push(f);
    expect(items).toEqual([1, 2, 3, 4, 5]);
    expect(sent.map((r) => new URL(r.url).search)).toEqual(["?per_page=2", "?per_page=2&cursor=c2", "?per_page=2&page=3"]);
  });

  it("reads Retry-After as seconds or as an HTTP date", () => {
    expect(retryAfterSeconds("7")).toBe(7);
    expect(retryAfterSeconds(new Date(Date.UTC(2030, 0, 1, 0, 0, 30)).toUTCString(), Date.UTC(2030, 0, 1))).toBe(30);
    expect(retryAfterSeconds(null)).toBeUndefined();
    expect(retryAfterSeconds("soon")).toBeUndefined();
  });
});

describe("verifyWebhook", () => {
  const secret = "whsec-test";
  const body = JSON.stringify({ id: "delivery_1", event: "scan.completed", timestamp: "2026-11-27T00:00:00Z", data: {} });
  const now = 1_800_000_000_000;
  const standard = (b: string, ts = Math.floor(now / 1000)) => ({
    "webhook-id": "delivery_1",
    "webhook-timestamp": String(ts),
    "webhook-signature": `v1,${createHmac("sha256", secret).update(`delivery_1.${ts}.${b}`).digest("base64")}`,
  });

  it("accepts both schemes the service sends and refuses a changed body, another secret and an old timestamp", () => {
    expect(verifyWebhook({ body, headers: standard(body), secret, now }).id).toBe("delivery_1");
    const service = { "x-service-signature": `sha256=${createHmac("sha256", secret).update(body).digest("hex")}` };
    expect(verifyWebhook({ body: Buffer.from(body), headers: service, secret, now }).event).toBe("scan.completed");
    expect(() => verifyWebhook({ body: `${body} `, headers: standard(body), secret, now })).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook({ body, headers: service, secret: "other", now })).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook({ body, headers: standard(body, now / 1000 - 600), secret, now })).toThrow(/too old/);
    expect(() => verifyWebhook({ body, headers: {}, secret, now })).toThrow(/no signature/);
  });
});
