import { describe, expect, it } from "vitest";
import { declaredIndexes } from "../support/declared-indexes.js";
import { readSnapshot, uncovered } from "../support/query-coverage.js";

/*
 * Every query shape the services were seen sending (test/support/query-shapes.json, kept complete
 * by the integration run's teardown) has a declared index in equality–sort–range order, or is a
 * scan declared with its reason. Runs without servers, so FerretDB-only machines guard the rule.
 */
describe("index coverage of every recorded query shape", () => {
  const snapshot = readSnapshot();

  it("has shapes of the services that use a database", () => {
    const services = new Set(snapshot.map((s) => s.service));
    for (const name of ["auth", "scan-orchestrator", "findings", "gateway"]) expect(services, name).toContain(name);
    for (const name of services) expect(declaredIndexes, name).toHaveProperty([name]);
  });

  it("finds an index for every shape", () => {
    expect(uncovered(snapshot)).toEqual([]);
  });
});
