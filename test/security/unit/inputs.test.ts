import { Code, ConnectError } from "@connectrpc/connect";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedInGateway } from "./gateway.js";
import { ENTRIES, type OpenApi, type Operation, operationsOf } from "../operations.js";

/*
 * Hostile input in every parameter and every body field of every operation of the OpenAPI
 * document, at gateway level (issue 14 item 5): operator syntax (`field[$ne]=`, `{"$ne": null}`,
 * `$` keys), huge numbers, arrays where one value is expected, deep nesting and oversized
 * bodies. Each answers 4xx in the spec's error shape, never 2xx or 5xx; numbers and operator
 * objects are refused by the gateway itself (no service is called). The upstream clients
 * record every call and answer NOT_FOUND, so what passes validation (a literal string) reaches
 * a service as plain text; test/security/system.test.ts shows the services then match nothing.
 */

const calls: string[] = [];
/** A client of any service: records the call, answers NOT_FOUND (to a unary call or a stream). */
const recordingClient = (service: string) =>
  new Proxy(
    {},
    {
      get: (_t, method) => () => {
        calls.push(`${service}.${String(method)}`);
        const fail = () => Promise.reject(new ConnectError("Not found", Code.NotFound));
        // A rejected promise a unary call awaits, that a streaming call iterates instead.
        const unary = fail();
        unary.catch(() => undefined);
        return Object.assign(unary, { [Symbol.asyncIterator]: () => ({ next: fail }) });
      },
    },
  );

let app: FastifyInstance;
let operations: Operation[];

beforeAll(async () => {
  app = await signedInGateway("security-inputs", recordingClient);
  await app.ready();
  operations = operationsOf(app.swagger() as unknown as OpenApi);
});

afterAll(async () => {
  await app?.close();
});

const pathOf = (op: Operation) => op.path.replace(/\{\w+\}/g, "id_1");
/** The operation's valid example body, with every id it names set to a placeholder. */
const jsonBody = (op: Operation) => (ENTRIES[op.key]?.body?.(new Proxy({}, { get: () => "id_1" }) as never) ?? {}) as Record<string, unknown>;

async function send(op: Operation, opts: { query?: string; payload?: string; contentType?: string }) {
  calls.length = 0;
  const res = await app.inject({
    method: op.method as "GET",
    url: `${pathOf(op)}${opts.query ? `?${opts.query}` : ""}`,
    headers: opts.payload !== undefined ? { "content-type": opts.contentType ?? "application/json" } : {},
    payload: opts.payload,
  });
  const body = String(res.headers["content-type"] ?? "").includes("json") ? res.json() : res.body;
  return { status: res.statusCode, body, called: [...calls] };
}

/** 4xx in the error shape, never 2xx or 5xx. */
function refused(res: { status: number; body: unknown }, what: string) {
  expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBeGreaterThanOrEqual(400);
  expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBeLessThan(500);
  expect(res.body, what).toMatchObject({ detail: expect.any(String), error_code: expect.any(String) });
}

/** Refused by the gateway's own validation: 422 naming the field, no service called. */
function refusedByGateway(res: { status: number; body: unknown; called: string[] }, field: string, what: string) {
  expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(422);
  expect(res.body, what).toMatchObject({ error_code: "VALIDATION_ERROR", field: expect.stringMatching(new RegExp(`^${field.replace(/\$/g, "\\$")}(\\.|$)`)) });
  expect(res.called, `${what} reached a service`).toEqual([]);
}

const queryOps = () => operations.filter((op) => op.query.length > 0);
const jsonOps = () => operations.filter((op) => op.bodyType === "application/json");

describe("every query parameter", { timeout: 60_000 }, () => {
  it("operator syntax in the name (`field[$ne]=`) is refused by the gateway: 422", async () => {
    let n = 0;
    for (const op of queryOps()) {
      for (const q of op.query) {
        for (const query of [`${q}[$ne]=x`, `${q}[$gt]=`, `${q}.$where=1`]) {
          const res = await send(op, { query });
          refused(res, `${op.key} ?${query}`);
          expect(res.status, `${op.key} ?${query}`).toBe(422);
          expect(res.called, `${op.key} ?${query} reached a service`).toEqual([]);
          n++;
        }
      }
    }
    expect(n).toBeGreaterThan(50);
  });

  it("huge and non-finite numbers are 4xx; in a numeric parameter, 422 from the gateway", async () => {
    const doc = app.swagger() as unknown as OpenApi;
    for (const op of queryOps()) {
      const params = doc.paths[op.path]![op.method.toLowerCase()]!.parameters ?? [];
      for (const q of op.query) {
        const type = [params.find((p) => p.name === q && p.in === "query")?.schema?.type].flat();
        for (const value of ["99999999999999999999999", "1e400", "-1e400", "NaN", "Infinity"]) {
          const res = await send(op, { query: `${q}=${value}` });
          if (type.includes("integer") || type.includes("number")) refusedByGateway(res, q, `${op.key} ?${q}=${value}`);
          else if (res.status >= 300) refused(res, `${op.key} ?${q}=${value}`);
          else expect(res.status, `${op.key} ?${q}=${value}`).toBeLessThan(500);
        }
      }
    }
  });

  it("an array where one value is expected is refused by the gateway: 422", async () => {
    for (const op of queryOps()) {
      for (const q of op.query) {
        refusedByGateway(await send(op, { query: `${q}=1&${q}=2` }), q, `${op.key} ?${q}=1&${q}=2`);
      }
    }
  });
});

// Hundreds of requests each; generous bounds for a loaded machine (about 5 s when idle).
describe("every JSON body field", { timeout: 60_000 }, () => {
  it("an operator object in any field is refused by the gateway: 422", async () => {
    let n = 0;
    for (const op of jsonOps()) {
      for (const p of op.bodyProperties) {
        for (const value of [{ $ne: null }, { $gt: "" }, { $where: "1" }, [{ $ne: null }]]) {
          const res = await send(op, { payload: JSON.stringify({ ...jsonBody(op), [p]: value }) });
          refusedByGateway(res, p, `${op.key} ${p}=${JSON.stringify(value)}: ${JSON.stringify(res.body)}`);
          n++;
        }
      }
    }
    expect(n).toBeGreaterThan(100);
  });

  it("a `$` key beside valid fields is refused by the gateway: 422", async () => {
    for (const op of jsonOps()) {
      for (const key of ["$where", "$set", "$ne", "__proto__", "constructor"]) {
        const payload = JSON.stringify(jsonBody(op))
          .replace(/^\{/, `{${JSON.stringify(key)}:{"a":1},`)
          .replace(",}", "}");
        const res = await send(op, { payload });
        refused(res, `${op.key} with ${key}`);
        // `__proto__` is refused by Fastify's JSON parser itself (400), the others as unknown fields (422).
        expect(res.status, `${op.key} with ${key}`).toBe(key === "__proto__" ? 400 : 422);
        expect(res.called, `${op.key} with ${key} reached a service`).toEqual([]);
      }
    }
  });

  it("huge numbers, deep nesting and huge arrays in any field are 4xx, never 2xx or 5xx", async () => {
    const deep = (n: number) => `${"[".repeat(n)}${"]".repeat(n)}`;
    const huge = `[${Array.from({ length: 20_000 }, () => '"x"').join(",")}]`;
    for (const op of jsonOps()) {
      const base = JSON.stringify(jsonBody(op));
      for (const p of op.bodyProperties) {
        for (const value of ["1e400", "-1e400", "99999999999999999999999", deep(64), deep(5000), huge]) {
          const obj = JSON.parse(base) as Record<string, unknown>;
          delete obj[p];
          const rest = JSON.stringify(obj).slice(1, -1);
          const payload = `{${rest}${rest ? "," : ""}${JSON.stringify(p)}:${value}}`;
          const res = await send(op, { payload });
          const what = `${op.key} ${p}=${value.slice(0, 20)}`;
          if (value.startsWith("[") && value.length > 100) refused(res, what);
          else if (res.status >= 300) refused(res, what);
          else expect(res.status, what).toBeLessThan(500);
        }
      }
    }
  });

  it("a body over BODY_LIMIT_BYTES is 413 in the error shape", async () => {
    for (const op of jsonOps()) {
      const res = await send(op, { payload: JSON.stringify({ pad: "x".repeat(1024 * 1024 + 1) }) });
      refused(res, op.key);
      expect(res.status, op.key).toBe(413);
    }
  });

  it("deep JSON that would overflow a recursive parser is 400, never 500", async () => {
    for (const op of jsonOps()) {
      const res = await send(op, { payload: `{"a":${"[".repeat(200_000)}${"]".repeat(200_000)}}` });
      refused(res, op.key);
    }
  });
});

describe("form bodies (the token endpoint)", () => {
  it("operator syntax in form field names or repeated fields is 422", async () => {
    const op = operations.find((o) => o.key === "POST /api/v1/auth/token")!;
    for (const payload of ["username[$ne]=x&password=y", "username=a&username=b&password=y", "username=a&password[$gt]="]) {
      const res = await send(op, { payload, contentType: "application/x-www-form-urlencoded" });
      refused(res, payload);
      expect(res.status, payload).toBe(422);
      expect(res.called, payload).toEqual([]);
    }
  });
});
