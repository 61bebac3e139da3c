import http from "node:http";
import type { AddressInfo } from "node:net";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unique } from "../../test/support/names.js";
import { type ScansGateway, startScansGateway } from "./scans-gateway.js";

/*
 * GET /api/v1/scans/{scan_id}/events against the real scan-orchestrator (in-process, real Kafka
 * and MongoDB-protocol server; no scanner, so a scan stays pending until it is cancelled), over a
 * real socket: the stream's first event, an event when the scan changes, the end, one hit on the
 * rate limiter for the whole stream, 404 for another organization's scan, and the document: every
 * record sent matches the event schema it documents (as schemathesis checks them in test:fuzz).
 */
const orgA = unique("org_a");
const orgB = unique("org_b");
const KEYS: Record<string, { orgId: string; permissions: string[]; name: string }> = {
  key_a: { orgId: orgA, permissions: ["read:scans", "write:scans"], name: "ci-a" },
  key_b: { orgId: orgB, permissions: ["read:scans", "write:scans"], name: "ci-b" },
};

let gw: ScansGateway;
let app: FastifyInstance;
let base: string;
/** Rate-limiter hits: the guard calls the limiter once per request it lets through. */
const hits: string[] = [];

beforeAll(async () => {
  gw = await startScansGateway(KEYS, {
    hit: async () => {
      hits.push("hit");
      return undefined;
    },
  });
  app = gw.app;
  await app.listen({ host: "127.0.0.1", port: 0 });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await gw?.close();
});

const call = (key: string, method: "GET" | "POST" | "DELETE", url: string, payload?: object) =>
  app.inject({ method, url, headers: { "x-api-key": key }, ...(payload ? { payload } : {}) });

interface Sse {
  event: string;
  data: string;
}

/** Opens the stream over a real socket and hands each event to `on` as it arrives; resolves with all of them at the end. */
function follow(key: string, scanId: string, on: (e: Sse) => void): Promise<{ status: number; headers: http.IncomingHttpHeaders; events: Sse[]; raw: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}/api/v1/scans/${scanId}/events`, { headers: { "x-api-key": key, accept: "text/event-stream" } }, (res) => {
      let raw = "";
      let pending = "";
      const events: Sse[] = [];
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        raw += chunk;
        pending += chunk;
        let at = pending.indexOf("\n\n");
        while (at >= 0) {
          const block = pending.slice(0, at);
          pending = pending.slice(at + 2);
          const lines = block.split("\n");
          const event = lines.find((l) => l.startsWith("event: "))?.slice(7);
          const data = lines.find((l) => l.startsWith("data: "))?.slice(6);
          if (event && data !== undefined) {
            events.push({ event, data });
            on({ event, data });
          }
          at = pending.indexOf("\n\n");
        }
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, events, raw }));
      res.on("error", reject);
    });
    req.on("error", reject);
  });
}

interface EventSchema {
  properties: { event: { enum: [string] }; data: { contentMediaType: string; contentSchema: object } };
}

/** Checks each record against the document's schema for one event: the record's fields, then its data as the JSON its event names. */
async function expectDocumented(events: Sse[]): Promise<void> {
  const doc = (await app.inject({ method: "GET", url: "/openapi.json", headers: { "x-api-key": "key_a" } })).json();
  const media = doc.paths["/api/v1/scans/{scan_id}/events"].get.responses["200"].content["text/event-stream"];
  const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
  const record = ajv.compile(media.schema);
  const kinds = media.schema.oneOf as EventSchema[];
  expect(events.length).toBeGreaterThan(0);
  for (const e of events) {
    expect(record(e), `${e.event}: ${ajv.errorsText(record.errors)}`).toBe(true);
    const kind = kinds.find((k) => k.properties.event.enum[0] === e.event)!;
    expect(kind.properties.data.contentMediaType).toBe("application/json");
    const data = ajv.compile(kind.properties.data.contentSchema);
    expect(data(JSON.parse(e.data)), `${e.event} data: ${ajv.errorsText(data.errors)}`).toBe(true);
  }
}

describe("GET /api/v1/scans/{scan_id}/events", () => {
  it("sends the scan at once, again when it changes, then end; one rate-limit hit for the whole stream", async () => {
    const created = await call("key_a", "POST", "/api/v1/scans", { target: "192.0.2.1", scan_type: "quick", authorized: true });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    const before = hits.length;
    let cancelled = false;
    const result = await follow("key_a", id, (e) => {
      // The first event is the pending scan; cancelling it is the change the stream must report.
      if (e.event === "scan" && !cancelled) {
        cancelled = true;
        void call("key_a", "DELETE", `/api/v1/scans/${id}`);
      }
    });
    expect(result.status).toBe(200);
    expect(result.headers["content-type"]).toBe("text/event-stream; charset=utf-8");
    expect(result.headers["cache-control"]).toBe("no-store");
    expect(result.raw.startsWith("retry: ")).toBe(true);
    const scans = result.events.filter((e) => e.event === "scan").map((e) => JSON.parse(e.data));
    expect(scans[0]).toMatchObject({ id, status: "pending", progress: 0 });
    // The same JSON as GET /api/v1/scans/{id}.
    expect(Object.keys(scans[0]).sort()).toEqual(expect.arrayContaining(["id", "status", "progress", "phase", "phases_completed", "phases_remaining"]));
    expect(scans.at(-1)).toMatchObject({ id, status: "cancelled" });
    // Only changes are sent: no two consecutive events carry the same scan.
    for (let i = 1; i < scans.length; i++) expect(scans[i]).not.toEqual(scans[i - 1]);
    expect(result.events.at(-1)).toEqual({ event: "end", data: JSON.stringify({ status: "cancelled" }) });
    // The stream itself was one request for the rate limiter (the DELETE was another).
    expect(hits.length - before).toBe(2);
    await expectDocumented(result.events);
    expect((await call("key_a", "GET", `/api/v1/scans/${id}`)).json().status).toBe("cancelled");
  });

  it("ends at once for a finished scan, and answers 404 as JSON for another organization's or an unknown scan", async () => {
    const id = (await call("key_a", "POST", "/api/v1/scans", { target: "192.0.2.2", scan_type: "quick", authorized: true })).json().id as string;
    await call("key_a", "DELETE", `/api/v1/scans/${id}`);
    const done = await follow("key_a", id, () => undefined);
    expect(done.events.map((e) => e.event)).toEqual(["scan", "end"]);
    await expectDocumented(done.events);
    for (const [key, scanId] of [
      ["key_b", id],
      ["key_a", "scan_nope"],
    ] as const) {
      const res = await call(key, "GET", `/api/v1/scans/${scanId}/events`);
      expect(res.statusCode).toBe(404);
      expect(res.headers["content-type"]).toContain("application/json");
      expect(res.json()).toMatchObject({ error_code: "NOT_FOUND" });
    }
  });

  it("is documented as text/event-stream in the OpenAPI document", async () => {
    const doc = (await app.inject({ method: "GET", url: "/openapi.json", headers: { "x-api-key": "key_a" } })).json();
    const op = doc.paths["/api/v1/scans/{scan_id}/events"].get;
    expect(Object.keys(op.responses["200"].content)).toEqual(["text/event-stream"]);
    // The schema describes one event (OpenAPI 3.1 reads a stream's schema per item), not the body as a string.
    expect(op.responses["200"].content["text/event-stream"].schema.oneOf.map((k: EventSchema) => k.properties.event.enum[0])).toEqual(["scan", "end", "error"]);
    expect(op.description).toMatch(/one request against the hourly and daily rate limits/);
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(["404"]));
  });
});
