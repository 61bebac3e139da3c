import { timestampDate } from "@bufbuild/protobuf/wkt";
import { FindingStatus } from "@vulnscan/proto/vulnscan/findings/v1/findings_service_pb.js";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { unique } from "../../../test/support/names.js";
import { REFRESH_BATCH } from "../src/domain/sla-upkeep.js";
import { detection as facts } from "../src/domain/test-fixtures.js";
import { eventually, startReplicas, type TestService } from "./support.js";

/*
 * A new findings policy reaches a large organization's open findings without the saving request
 * walking them all: the request refreshes the first batch, housekeeping on either of two
 * replicas resumes from the stored cursor until every due date moved, each once.
 */
let replicas: Awaited<ReturnType<typeof startReplicas>> | undefined;
let a: TestService;
let b: TestService;
const alice = { userId: "user_1", displayName: "alice@a.test" };
const DAY = 86_400_000;

beforeAll(async () => {
  replicas = await startReplicas(inject("kafkaBrokers"), inject("mongoUrl"));
  ({ a, b } = replicas);
});
afterAll(async () => {
  await replicas?.stop();
});

describe("policy refresh of open findings' due dates", () => {
  it("answers after the first batch and finishes in the background, every open finding moved once", async () => {
    const org = unique("org");
    const n = REFRESH_BATCH + 60;
    const detected = new Date(Date.now() - DAY);
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const d = facts({ detection_id: `${org}-${i}`, org_id: org, template_id: `check-${i}`, title: `Finding ${i}`, severity: "high", detected_at: detected });
      ids.push((await (i % 2 ? a : b).app.ingest(d)).findingId);
    }
    const slaDays = { critical: 3, high: 11, medium: 30, low: 60 };
    const res = await a.client.updateFindingsPolicy({ orgId: org, slaDays, requireAcceptanceApproval: false, actor: alice });
    expect(res.refreshed).toBe(REFRESH_BATCH);
    expect(res.policy).toMatchObject({ refreshState: "running", refreshed: REFRESH_BATCH });

    const done = await eventually(
      async () => (await b.client.getFindingsPolicy({ orgId: org })).policy!,
      (p) => p.refreshState === "done",
      45_000,
      "the refresh to finish",
    );
    expect(done.refreshed).toBe(n);
    const due = detected.getTime() + 11 * DAY;
    for (const id of [ids[0]!, ids[n >> 1]!, ids.at(-1)!]) {
      const f = (await a.client.getFinding({ orgId: org, findingId: id })).finding!;
      expect(f.status).toBe(FindingStatus.OPEN);
      expect(timestampDate(f.dueDate!).getTime()).toBe(due);
    }
  }, 120_000);
});
