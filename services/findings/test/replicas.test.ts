import { Code, ConnectError } from "@connectrpc/connect";
import { FindingStatus, Severity } from "@vulnscan/proto/vulnscan/findings/v1/findings_service_pb.js";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { unique } from "../../../test/support/names.js";
import { detection as facts } from "../src/domain/test-fixtures.js";
import { startReplicas, type TestService } from "./support.js";

/*
 * Two replicas on one database, both keeping details, pages and totals in memory (LIST_CACHE_MS
 * as in production): what one writes, the other shows at once (docs/decisions.md, Performance).
 */
let replicas: Awaited<ReturnType<typeof startReplicas>> | undefined;
let a: TestService;
let b: TestService;
const alice = { userId: "user_1", displayName: "alice@a.test" };

beforeAll(async () => {
  replicas = await startReplicas(inject("kafkaBrokers"), inject("mongoUrl"), { LIST_CACHE_MS: "60000" });
  ({ a, b } = replicas);
});
afterAll(async () => {
  await replicas?.stop();
});

const ingest = (svc: TestService, org: string, i: number) =>
  svc.app.ingest(facts({ detection_id: `${org}-${i}`, org_id: org, template_id: `check-${i}`, title: `Finding ${i}`, severity: "high" }));

describe("kept reads across replicas", () => {
  const org = unique("org");
  const other = unique("org");

  it("a detail, a list page and its total are fresh on another replica right after a write, and another organization's id stays 404", async () => {
    const ids = [(await ingest(a, org, 0)).findingId, (await ingest(a, org, 1)).findingId];
    const list = () => b.client.listFindings({ orgId: org, filter: { status: FindingStatus.OPEN }, pagination: { page: 1, perPage: 20 } });
    // Read (and kept) on B.
    expect((await b.client.getFinding({ orgId: org, findingId: ids[0]! })).finding!.status).toBe(FindingStatus.OPEN);
    expect((await list()).pageInfo!.total).toBe(2);
    expect((await list()).pageInfo!.total).toBe(2);

    // Changed on A: B answers the change, not what it kept.
    await a.client.updateFinding({ orgId: org, findingId: ids[0]!, status: FindingStatus.RESOLVED, actor: alice });
    expect((await b.client.getFinding({ orgId: org, findingId: ids[0]! })).finding!.status).toBe(FindingStatus.RESOLVED);
    const page = await list();
    expect(page.pageInfo!.total).toBe(1);
    expect(page.findings.map((f) => f.id)).toEqual([ids[1]]);

    // A new finding stored by A: B's total and page count it (its counts move the version again once applied).
    const third = (await ingest(a, org, 2)).findingId;
    const after = await list();
    expect(after.pageInfo!.total).toBe(2);
    expect(after.findings.map((f) => f.id).sort()).toEqual([ids[1], third].sort());
    expect((await b.client.getFinding({ orgId: org, findingId: third })).finding!.severity).toBe(Severity.HIGH);

    // Another organization asking for these ids, before and after it has findings of its own: 404 on both replicas.
    for (const svc of [a, b]) {
      const err = await svc.client.getFinding({ orgId: other, findingId: ids[1]! }).then(
        () => undefined,
        (e: unknown) => ConnectError.from(e),
      );
      expect(err?.code).toBe(Code.NotFound);
    }
    await ingest(b, other, 0);
    const err = await b.client.getFinding({ orgId: other, findingId: ids[1]! }).then(
      () => undefined,
      (e: unknown) => ConnectError.from(e),
    );
    expect(err?.code).toBe(Code.NotFound);
  });
});
