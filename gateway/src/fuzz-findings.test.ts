import type { FastifyInstance, FastifyPluginAsync } from "fastify";
import { Code, ConnectError } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp } from "./test-app.js";
import type { PlanCache } from "./plans.js";

/*
 * Regressions for what `npm run test:fuzz` (schemathesis against the served document) found,
 * each fixed where it arose: the 405 handler, request validation, the OpenAPI generation and
 * the route schemas. No upstream is called: these are answers the gateway gives by itself.
 */

const echo: FastifyPluginAsync = async (app) => {
  app.post(
    "/api/v1/echo",
    {
      config: { public: true },
      schema: {
        hide: true,
        querystring: { type: "object", properties: { n: { type: "integer" } } },
        body: {
          type: "object",
          additionalProperties: false,
          properties: { notes: { type: "string" }, count: { type: "integer" }, flag: { type: "boolean" } },
        },
      },
    },
    async (req) => ({ query: req.query, body: req.body }),
  );
};

let app: FastifyInstance;
let signedIn: FastifyInstance;
const uploads: { expiresAt?: unknown; observedFrom?: unknown }[] = [];
let doc: { paths: Record<string, Record<string, OpenApiOperation>> };

interface OpenApiOperation {
  responses: Record<string, unknown>;
  requestBody?: { content: Record<string, { schema: { required?: string[]; properties: Record<string, { format?: string }> } }> };
}

beforeAll(async () => {
  app = await buildTestApp({ plans: {} as PlanCache, plugins: [echo] });
  doc = app.swagger() as unknown as typeof doc;
  // A signed-in caller and a grc upstream that records what reached it (then says not found).
  const grc = {
    uploadEvidence: async (req: { expiresAt?: unknown; observedFrom?: unknown }) => {
      uploads.push(req);
      throw new ConnectError("Control not found", Code.NotFound);
    },
  };
  signedIn = await buildTestApp({
    upstreams: { grc: grc as never },
    authenticate: async () => ({ kind: "user", orgId: "org_1", userId: "user_1", sessionId: "s_1", email: "a@example.com", token: "t" }),
  });
});
afterAll(async () => {
  await app?.close();
  await signedIn?.close();
});

/** A multipart upload with a file part and the given text fields. */
function upload(fields: Record<string, string>) {
  const boundary = "fuzzboundary";
  const parts = Object.entries(fields).map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
  const file = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n`;
  return signedIn.inject({
    method: "POST",
    url: "/api/v1/controls/ctrl_1/evidence",
    headers: { "content-type": `multipart/form-data; boundary=${boundary}`, authorization: "Bearer t" },
    payload: `${parts.join("")}${file}--${boundary}--\r\n`,
  });
}

describe("evidence upload's form fields are validated by their documented schema", () => {
  it.each([
    ["expires_at", "2030-02-30"],
    ["expires_at", "2030-01-01 nonsense"],
    ["observed_from", "2030-01-01T10:00:00"], // a date-time needs its offset
    ["title", "x".repeat(201)],
    ["description", "a\u0000b"],
  ])("%s = %j → 422 on the field, grc not called", async (field, value) => {
    const before = uploads.length;
    const res = await upload({ [field]: value });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ error_code: "VALIDATION_ERROR", field });
    expect(uploads.length).toBe(before);
  });

  it("answers a multipart body it cannot parse (no boundary, cut off) with 400, not 500", async () => {
    const headers = { authorization: "Bearer t" };
    const url = "/api/v1/controls/ctrl_1/evidence";
    const noBoundary = await signedIn.inject({ method: "POST", url, headers: { ...headers, "content-type": "multipart/form-data" }, payload: "x" });
    expect(noBoundary.statusCode).toBe(400);
    expect(noBoundary.json()).toMatchObject({ error_code: "BAD_REQUEST" });
    const cut = await signedIn.inject({
      method: "POST",
      url,
      headers: { ...headers, "content-type": "multipart/form-data; boundary=b" },
      payload: '--b\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nabc',
    });
    expect(cut.statusCode).toBe(400);
  });

  it("takes dates and date-times, and an empty field as none", async () => {
    const res = await upload({ expires_at: "", observed_from: "2030-01-01T10:00:00Z", observed_to: "2030-01-02" });
    expect(res.statusCode).toBe(404); // reached grc, whose answer is passed on
    expect(uploads.at(-1)?.expiresAt).toBeUndefined();
    expect(uploads.at(-1)?.observedFrom).toBeDefined();
  });
});

describe("405 Allow lists the methods of the resource the path names", () => {
  // /findings/bulk also matches /findings/{finding_id}; the document (and the router, which
  // prefers static segments) says the resource is the bulk one.
  it.each([
    ["/api/v1/findings/bulk", "POST"],
    ["/api/v1/findings/export", "GET, HEAD"],
    ["/api/v1/findings/stats", "GET, HEAD"],
    ["/api/v1/scans/quota", "GET, HEAD"],
    ["/api/v1/findings/f_1", "GET, HEAD, PATCH"],
  ])("OPTIONS %s → Allow: %s", async (url, allow) => {
    const res = await app.inject({ method: "OPTIONS", url });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe(allow);
  });
});

describe("request validation", () => {
  it("refuses null for a string, number or boolean JSON field instead of coercing it", async () => {
    for (const field of ["notes", "count", "flag"]) {
      const res = await app.inject({ method: "POST", url: "/api/v1/echo", payload: { [field]: null } });
      expect(res.statusCode, field).toBe(422);
      expect(res.json()).toMatchObject({ error_code: "VALIDATION_ERROR", field });
    }
    const typed = await app.inject({ method: "POST", url: "/api/v1/echo", payload: { count: "5" } });
    expect(typed.statusCode).toBe(422);
  });

  it("still coerces query strings, which are text on the wire", async () => {
    const res = await app.inject({ method: "POST", url: "/api/v1/echo?n=7", payload: { notes: "", count: 1, flag: true } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ query: { n: 7 }, body: { notes: "", count: 1, flag: true } });
  });
});

describe("the OpenAPI document", () => {
  it("documents 400 BAD_REQUEST on every operation (a malformed body or URL can reach any of them)", () => {
    const missing = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([method, op]) => path.startsWith("/api/v1/") && !("400" in op.responses) && method !== "parameters")
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(missing).toEqual([]);
  });

  it("states the no-NUL rule once, in the document's description, not as a pattern on every string", async () => {
    const info = (doc as unknown as { info: { description: string } }).info;
    expect(info.description).toContain("NUL character");
    expect(JSON.stringify(doc.paths)).not.toContain("^[^\\u0000]*$");
    // The rule is still enforced everywhere (plugins/no-nul.ts), and the fuzzer is told not to send NUL as valid text.
    const res = await app.inject({ method: "POST", url: "/api/v1/echo", payload: { notes: "a\u0000b" } });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ error_code: "VALIDATION_ERROR", field: "notes" });
    const toml = await import("node:fs").then((fs) => fs.readFileSync(new URL("../../scripts/fuzz/schemathesis.toml", import.meta.url), "utf8"));
    expect(toml).toMatch(/^allow-x00 = false$/m);
  });

  it("shows the evidence upload's multipart body with its file part", () => {
    const body = doc.paths["/api/v1/controls/{control_id}/evidence"]?.post?.requestBody;
    const form = body?.content["multipart/form-data"]?.schema;
    expect(form?.required).toEqual(["file"]);
    expect(form?.properties.file?.format).toBe("binary");
  });

  it("does not promise JSON for an evidence download (the file keeps its uploader's content type)", () => {
    const download = doc.paths["/api/v1/evidence/{evidence_id}/download"]?.get?.responses["200"] as { content: Record<string, unknown> };
    expect(Object.keys(download.content)).toEqual(["*/*"]);
  });

  it("states that a scan's authorization attestation must be true", () => {
    const props = (op: OpenApiOperation | undefined) =>
      (op?.requestBody?.content["application/json"]?.schema.properties ?? {}) as Record<string, { enum?: unknown[] }>;
    expect(props(doc.paths["/api/v1/scans"]?.post).authorized?.enum).toEqual([true]);
    expect(props(doc.paths["/api/v1/scans/schedules"]?.post).authorized?.enum).toEqual([true]);
  });
});
