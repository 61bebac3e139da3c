import { encodeCursor } from "@vulnscan/kit";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scanListDescription } from "../../services/scan-orchestrator/src/domain/scans.js";
import { unique } from "../../test/support/names.js";
import { type ScansGateway, startScansGateway } from "./scans-gateway.js";

/*
 * The gateway's scan list against the real scan-orchestrator (in-process, real Kafka and
 * MongoDB-protocol server), as the orchestrator's own tests run it: documentation-range targets
 * inside its allowlist, and no scanner, so scans stay pending and nothing is sent anywhere.
 * Authentication is by API keys of a fake auth upstream: org A and org B, one key each.
 */
const orgA = unique("org_a");
const orgB = unique("org_b");
const KEYS: Record<string, { orgId: string; permissions: string[]; name: string }> = {
  key_a: { orgId: orgA, permissions: ["read:scans", "write:scans"], name: "ci-a" },
  key_b: { orgId: orgB, permissions: ["read:scans", "write:scans"], name: "ci-b" },
};
const TARGETS = ["192.0.2.1", "192.0.2.2", "192.0.2.1"];

let gw: ScansGateway;
let app: FastifyInstance;
const idsA: string[] = [];
const idsB: string[] = [];

beforeAll(async () => {
  gw = await startScansGateway(KEYS);
  app = gw.app;
  await app.ready();
  for (let i = 0; i < 11; i++) {
    const res = await call("key_a", "POST", "/api/v1/scans", { target: TARGETS[i % 3], scan_type: "quick", authorized: true });
    expect(res.statusCode, res.body).toBe(201);
    idsA.push(res.json().id);
  }
  for (let i = 0; i < 2; i++)
    idsB.push((await call("key_b", "POST", "/api/v1/scans", { target: "192.0.2.1", scan_type: "quick", authorized: true })).json().id);
});
afterAll(async () => {
  await gw?.close();
});

const call = (key: string, method: "GET" | "POST", url: string, payload?: object) =>
  app.inject({ method, url, headers: { "x-api-key": key }, ...(payload ? { payload } : {}) });

const idsOf = (body: { items: Array<{ id: string }> }) => body.items.map((s) => s.id);

/** Every page of a list by cursor, from the first page; at most 20 pages. */
async function walk(key: string, qs: string) {
  let body = (await call(key, "GET", `/api/v1/scans?${qs}`)).json();
  const ids = idsOf(body);
  const pages: number[] = [body.page];
  while (body.next_cursor && pages.length < 20) {
    const res = await call(key, "GET", `/api/v1/scans?${qs}&cursor=${encodeURIComponent(body.next_cursor)}`);
    expect(res.statusCode, res.body).toBe(200);
    body = res.json();
    ids.push(...idsOf(body));
    pages.push(body.page);
  }
  return { ids, pages, last: body };
}

describe("GET /api/v1/scans with the keyset cursor", () => {
  it("walks every page of a filtered list: no duplicates, no gaps, the scans of page numbers, no cursor after the last", async () => {
    const onTarget = (t: string) => idsA.filter((_, i) => TARGETS[i % 3] === t);
    for (const [qs, expected] of [
      ["per_page=2&target=192.0.2.1", onTarget("192.0.2.1")],
      ["per_page=3&status=pending", idsA],
      ["per_page=4", idsA],
      ["per_page=1&target=192.0.2.2", onTarget("192.0.2.2")],
    ] as const) {
      const byNumber: string[] = [];
      for (let page = 1; page <= 12; page++) byNumber.push(...idsOf((await call("key_a", "GET", `/api/v1/scans?${qs}&page=${page}`)).json()));
      const { ids, pages, last } = await walk("key_a", qs);
      expect(ids, qs).toEqual(byNumber);
      expect([...ids].sort(), qs).toEqual([...expected].sort());
      expect(new Set(ids).size, qs).toBe(ids.length);
      expect(pages, qs).toEqual(pages.map((_, i) => i + 1));
      expect(last, qs).toMatchObject({ total: expected.length, next_cursor: null });
    }
    // 4 of the 11 scans are on 192.0.2.2: pages of 2 end on the second, with no cursor to an empty third.
    expect((await walk("key_a", "per_page=2&target=192.0.2.2")).pages).toEqual([1, 2]);
  });

  it("takes the page from the cursor when both are given", async () => {
    const first = (await call("key_a", "GET", "/api/v1/scans?per_page=3")).json();
    const plain = (await call("key_a", "GET", `/api/v1/scans?per_page=3&cursor=${encodeURIComponent(first.next_cursor)}`)).json();
    const withPage = (await call("key_a", "GET", `/api/v1/scans?per_page=3&page=4&cursor=${encodeURIComponent(first.next_cursor)}`)).json();
    expect(withPage).toEqual(plain);
    expect(plain).toMatchObject({ page: 2, per_page: 3, total: idsA.length });
    expect(idsOf(plain)).toEqual(idsOf((await call("key_a", "GET", "/api/v1/scans?per_page=3&page=2")).json()));
  });

  it("refuses a cursor of other filters, or one it did not issue, with 422 on cursor", async () => {
    const first = (await call("key_a", "GET", "/api/v1/scans?per_page=2&target=192.0.2.1")).json();
    for (const qs of [
      "per_page=2&target=192.0.2.2",
      "per_page=2",
      "per_page=2&target=192.0.2.1&status=running",
      "per_page=2&target=192.0.2.1&from_date=2020-01-01T00:00:00Z",
    ]) {
      const res = await call("key_a", "GET", `/api/v1/scans?${qs}&cursor=${encodeURIComponent(first.next_cursor)}`);
      expect(res.statusCode, qs).toBe(422);
      // The spec's body, plus the list of every field error (here the one).
      expect(res.json(), qs).toEqual({
        detail: "cursor belongs to a list with other filters or sort order",
        error_code: "VALIDATION_ERROR",
        field: "cursor",
        errors: [{ detail: "cursor belongs to a list with other filters or sort order", error_code: "VALIDATION_ERROR", field: "cursor" }],
      });
    }
    for (const bad of ["not-a-cursor", Buffer.from('{"v":1}').toString("base64url"), "x".repeat(1025)]) {
      const res = await call("key_a", "GET", `/api/v1/scans?cursor=${bad}`);
      expect(res.statusCode, bad).toBe(422);
      expect(res.json(), bad).toMatchObject({ error_code: "VALIDATION_ERROR", field: "cursor" });
    }
  });

  it("moves only within the caller's organization", async () => {
    const first = (await call("key_a", "GET", "/api/v1/scans?per_page=2")).json();
    // Org A's cursor is bound to org A's list.
    const res = await call("key_b", "GET", `/api/v1/scans?per_page=2&cursor=${encodeURIComponent(first.next_cursor)}`);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ error_code: "VALIDATION_ERROR", field: "cursor" });
    // A cursor org B makes by hand for its own list, anchored at org A's newest scan (the hash
    // is not a secret), still lists org B's scans only.
    const newestA = (await call("key_a", "GET", "/api/v1/scans?per_page=1")).json().items[0];
    const forged = encodeCursor(scanListDescription(orgB, {}), 2, { key: new Date(Date.parse(newestA.created_at) + 3_600_000), id: newestA.id });
    const listed = (await call("key_b", "GET", `/api/v1/scans?per_page=100&cursor=${encodeURIComponent(forged)}`)).json();
    expect(idsOf(listed).sort()).toEqual([...idsB].sort());
    expect(listed.total).toBe(idsB.length);
  });

  it("describes cursor and next_cursor in the OpenAPI document", async () => {
    const doc = (await call("key_a", "GET", "/openapi.json")).json();
    const list = doc.paths["/api/v1/scans"].get;
    expect(list.parameters.find((p: { name: string }) => p.name === "cursor")).toMatchObject({ in: "query", schema: { type: "string", maxLength: 1024 } });
    expect(list.description).toContain("next_cursor");
    expect(list.responses["200"].content["application/json"].schema.properties.next_cursor).toMatchObject({ type: ["string", "null"] });
  });
});
