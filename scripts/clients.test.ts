import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { breakingChanges, undeclared } from "./clients.ts";
import { ROOT } from "./lib/root.ts";

/** The breaking-change check `npm test` runs (scripts/clients.ts), on documents made to break. */
describe("the OpenAPI breaking-change check", () => {
  const base = path.join(ROOT, "clients", "openapi.json");

  it("finds a removed operation and a new required parameter, and lets only declared ones pass", async () => {
    const doc = JSON.parse(fs.readFileSync(base, "utf8"));
    delete doc.paths["/api/v1/frameworks"];
    doc.paths["/api/v1/findings"].get.parameters.push({ in: "query", name: "must", required: true, schema: { type: "string" } });
    // An additive change is not breaking: a new optional parameter.
    doc.paths["/api/v1/scans"].get.parameters.push({ in: "query", name: "maybe", required: false, schema: { type: "string" } });
    const changed = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "vulnscan-oasdiff-")), "openapi.json");
    fs.writeFileSync(changed, JSON.stringify(doc));

    const changes = await breakingChanges(base, changed);
    const keys = changes.map((c) => c.key);
    expect(keys).toContain("api-path-removed-without-deprecation GET /api/v1/frameworks");
    expect(keys).toContain("new-required-request-parameter GET /api/v1/findings");
    expect(keys.some((k) => k.includes("/api/v1/scans"))).toBe(false);

    const changelog = "## Unreleased\n\n- breaking: `api-path-removed-without-deprecation GET /api/v1/frameworks` (moved to /api/v2)\n";
    expect(undeclared(changes, changelog).map((c) => c.key)).toEqual(keys.filter((k) => !k.startsWith("api-path-removed")));
  }, 300_000);

  it("finds nothing between a document and itself", async () => {
    expect(await breakingChanges(base, base)).toEqual([]);
  }, 300_000);
});
