import { toJson } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { newId, type KafkaBus, type RpcServer } from "@vulnscan/kit";
import { VulnerabilityCriticalSchema } from "@vulnscan/proto/vulnscan/events/v1/finding_events_pb.js";
import { Confidence, FindingStatus, Severity } from "@vulnscan/proto/vulnscan/findings/v1/findings_service_pb.js";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { unique } from "../../../test/support/names.js";
import { newFinding } from "../src/domain/changes.js";
import { fingerprint } from "../src/domain/fingerprint.js";
import { contributionOf } from "../src/domain/rollup.js";
import type { DetectionFacts } from "../src/domain/types.js";
import { collectEvents, detection, eventually, newBus, publish, startFakeAuth, startFindings, testEnv, type TestService } from "./support.js";

let auth: RpcServer;
let svc: TestService;
let bus: KafkaBus;
let reader: Awaited<ReturnType<typeof collectEvents>>;

beforeAll(async () => {
  auth = await startFakeAuth();
  svc = await startFindings(testEnv(inject("kafkaBrokers"), inject("mongoUrl"), auth.port));
  bus = newBus(inject("kafkaBrokers"));
  reader = await collectEvents(bus, svc.config.FINDING_EVENTS_TOPIC);
});
afterAll(async () => {
  await reader?.stop();
  await bus?.close();
  await svc?.running.stop();
  await auth?.close();
});

const alice = { userId: "user_1", displayName: "alice@a.test" };

/** Detection facts as the consumer hands them to the application (minimal, one tool). */
function facts(over: Partial<DetectionFacts> & Pick<DetectionFacts, "detection_id" | "org_id" | "target" | "template_id">): DetectionFacts {
  return {
    scan_id: "scan_1",
    title: over.template_id,
    severity: "medium",
    cvss_score: 5,
    cvss_vector: "",
    cwe_ids: [],
    cve_ids: [],
    tool: "t",
    affected_component: "c",
    description: "",
    impact: "",
    remediation: { summary: "", steps: [], code_example: "", references: [] },
    evidence: { request: "", response: "", screenshot_url: null },
    frameworks: [],
    epss_score: null,
    kev: false,
    detected_at: new Date(),
    ...over,
  };
}

describe("ingestion from vulnscan.findings.detected", () => {
  it("creates findings, de-duplicates by fingerprint, ignores redeliveries, reopens across scans, and emits each event once", async () => {
    const org = unique("org");
    const topic = svc.config.DETECTIONS_TOPIC;
    const list = () => svc.client.listFindings({ orgId: org, pagination: { perPage: 100 } });

    const crit = detection(org, {
      templateId: "CVE-2021-44228",
      title: "Log4Shell",
      severity: Severity.CRITICAL,
      cvssScore: 10,
      cveIds: ["CVE-2021-44228"],
      cweIds: ["CWE-917"],
      affectedComponent: "https://app.example.test/api",
      kev: true,
      epssScore: 0.97,
      confidence: Confidence.VERSION_MATCH,
    });
    const high = detection(org);
    const info = detection(org, {
      templateId: "http-server-header",
      title: "Server header",
      severity: Severity.INFO,
      cvssScore: 0,
      cveIds: [],
      epssScore: undefined,
    });
    // Scan 1, with the high detection delivered twice.
    await publish(bus, topic, [crit, high, info, high]);
    const first = await eventually(list, (r) => r.pageInfo?.total === 3, 60_000, "three findings");
    const highFinding = first.findings.find((f) => f.templateId === "tls-weak-cipher")!;
    expect(highFinding).toMatchObject({ status: FindingStatus.OPEN, scanId: "scan_1", severity: Severity.HIGH });
    const detail1 = (await svc.client.getFinding({ orgId: org, findingId: highFinding.id })).finding!;
    expect(detail1.history.map((h) => [h.action, h.from, h.to, h.user])).toEqual([["created", undefined, "open", "system"]]);

    // Scan 2 sees the same issue: same finding, scan recorded, last_seen moves.
    const seenAgain = new Date(Date.now() + 60_000);
    await publish(bus, topic, [detection(org, { scanId: "scan_2", detectedAt: timestampFromDate(seenAgain) })]);
    const scan2 = await eventually(
      () => svc.client.listScanFindings({ orgId: org, scanId: "scan_2" }),
      (r) => r.total === 1,
      30_000,
      "scan_2 finding",
    );
    expect(scan2.findings[0]!.id).toBe(highFinding.id);
    expect((await list()).pageInfo?.total).toBe(3);
    const detail2 = (await svc.client.getFinding({ orgId: org, findingId: highFinding.id })).finding!;
    expect(detail2.lastSeenAt?.seconds).toBe(BigInt(Math.floor(seenAgain.getTime() / 1000)));
    expect(detail2.scanId).toBe("scan_1");
    expect(detail2.history).toHaveLength(1);

    // A redelivery of an applied detection changes nothing (sentinel after it on the same partition).
    const sentinel = detection(org, { scanId: "scan_2", templateId: "sentinel", severity: Severity.LOW, cvssScore: 2 });
    await publish(bus, topic, [high, sentinel]);
    await eventually(list, (r) => r.pageInfo?.total === 4, 30_000, "sentinel");
    expect((await svc.client.getFinding({ orgId: org, findingId: highFinding.id })).finding).toEqual(detail2);

    // Resolved by a person, seen again by scan 3: reopened by system.
    await svc.client.updateFinding({ orgId: org, findingId: highFinding.id, status: FindingStatus.RESOLVED, actor: alice });
    await publish(bus, topic, [detection(org, { scanId: "scan_3" })]);
    const reopened = await eventually(
      () => svc.client.getFinding({ orgId: org, findingId: highFinding.id }),
      (r) => r.finding?.status === FindingStatus.OPEN,
      30_000,
      "reopen",
    );
    expect(reopened.finding!.history.map((h) => [h.action, h.from ?? null, h.to, h.user])).toEqual([
      ["created", null, "open", "system"],
      ["status_changed", "open", "resolved", "alice@a.test"],
      ["reopened", "resolved", "open", "system"],
    ]);
    expect((await list()).pageInfo?.total).toBe(4);

    // A false positive stays one, but last_seen is recorded.
    const infoFinding = first.findings.find((f) => f.templateId === "http-server-header")!;
    await svc.client.updateFinding({ orgId: org, findingId: infoFinding.id, status: FindingStatus.FALSE_POSITIVE, actor: alice });
    const later = new Date(Date.now() + 120_000);
    await publish(bus, topic, [detection(org, { ...info, detectionId: "fp-again", scanId: "scan_4", detectedAt: timestampFromDate(later) })]);
    const fpAfter = await eventually(
      () => svc.client.getFinding({ orgId: org, findingId: infoFinding.id }),
      (r) => r.finding?.lastSeenAt?.seconds === BigInt(Math.floor(later.getTime() / 1000)),
      30_000,
      "last_seen of the false positive",
    );
    expect(fpAfter.finding!.status).toBe(FindingStatus.FALSE_POSITIVE);

    // Events: each once per real change (distinct envelope ids; redeliveries would repeat an id).
    const expected = {
      "vulnerability.found": 4,
      "vulnerability.critical": 1,
      "vulnerability.high": 1,
      "vulnerability.status_changed": 3,
      "vulnerability.resolved": 1,
    };
    const mine = () => [...new Map(reader.events.filter((e) => e.orgId === org).map((e) => [e.id, e])).values()];
    const count = () => {
      const c: Record<string, number> = {};
      for (const e of mine()) c[e.type] = (c[e.type] ?? 0) + 1;
      return c;
    };
    await eventually(
      async () => count(),
      (c) => JSON.stringify(c, Object.keys(expected).sort()) === JSON.stringify(expected, Object.keys(expected).sort()),
      30_000,
      "events",
    );
    await new Promise((r) => setTimeout(r, 1500)); // a relay pass or two later: still nothing more
    expect(count()).toEqual(expected);

    const critFinding = first.findings.find((f) => f.severity === Severity.CRITICAL)!;
    const critical = mine().find((e) => e.type === "vulnerability.critical")!;
    expect(critical.payload.case).toBe("vulnerabilityCritical");
    expect(toJson(VulnerabilityCriticalSchema, critical.payload.value as never, { useProtoFieldName: true, alwaysEmitImplicit: true })).toEqual({
      finding_id: critFinding.id,
      title: "Log4Shell",
      severity: "critical",
      cvss_score: 10,
      target: "app.example.test",
      affected_component: "https://app.example.test/api",
      cve_ids: ["CVE-2021-44228"],
      scan_id: "scan_1",
      // Added to the spec's data: the scanner's confidence, carried from the Detection record.
      confidence: "version_match",
    });
    const reopenEvent = mine().find((e) => e.payload.case === "vulnerabilityStatusChanged" && e.payload.value.user === "system")!;
    expect(reopenEvent.payload.value).toMatchObject({ findingId: highFinding.id, from: "resolved", to: "open" });
    const resolvedEvent = mine().find((e) => e.type === "vulnerability.resolved")!;
    expect(resolvedEvent.payload.value).toMatchObject({ findingId: highFinding.id, user: "alice@a.test", scanId: "scan_1" });
  });

  it("sends records that can never apply to the dead-letter topic and keeps consuming", async () => {
    const org = unique("org");
    const bad = detection(org, { templateId: "", severity: Severity.HIGH });
    const good = detection(org, { templateId: "after-poison" });
    await publish(bus, svc.config.DETECTIONS_TOPIC, [bad, good]);
    const r = await eventually(
      () => svc.client.listFindings({ orgId: org }),
      (x) => x.pageInfo?.total === 1,
      30_000,
      "the good record",
    );
    expect(r.findings[0]!.templateId).toBe("after-poison");
  });

  it("creates one finding when many detections of a new fingerprint race", async () => {
    const org = unique("org");
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        svc.app.ingest(
          facts({
            detection_id: `race-${i}`,
            org_id: org,
            scan_id: `scan_${i % 3}`,
            target: "race.example.test",
            template_id: "race",
            title: "Race",
            severity: "critical",
            cvss_score: 9,
          }),
        ),
      ),
    );
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(results.map((r) => r.findingId)).size).toBe(1);
    const scan = await svc.client.listFindings({ orgId: org });
    expect(scan.pageInfo?.total).toBe(1);
    const f = (await svc.client.getFinding({ orgId: org, findingId: results[0]!.findingId })).finding!;
    expect(f.history).toHaveLength(1);
    for (const s of ["scan_0", "scan_1", "scan_2"]) expect((await svc.client.listScanFindings({ orgId: org, scanId: s })).total).toBe(1);
    const events = await eventually(
      async () => new Set(reader.events.filter((e) => e.orgId === org).map((e) => `${e.id}|${e.type}`)),
      (s) => s.size >= 2,
      20_000,
      "race events",
    );
    await new Promise((r) => setTimeout(r, 1000));
    expect([...new Set(reader.events.filter((e) => e.orgId === org).map((e) => e.id))]).toHaveLength(2);
    expect([...events].map((x) => x.split("|")[1]).sort()).toEqual(["vulnerability.critical", "vulnerability.found"]);
  });

  it("finishes a creation whose writer stopped after its insert: counted once, announced once", async () => {
    const org = unique("org");
    const orphan = facts({
      detection_id: "orphan-1",
      org_id: org,
      scan_id: "scan_orphan",
      target: "orphan.example.test",
      template_id: "orphan",
      severity: "high",
      cvss_score: 7,
    });
    // What a writer that died right after its insert leaves: its intent and the finding, nothing counted or announced.
    const { doc } = newFinding(orphan, fingerprint(orphan), newId("finding"), new Date());
    const intent = svc.store.rollups.intent();
    await intent.add([{ org, f: doc._id, d: { add: contributionOf(doc) } }]);
    await svc.store.findings.insertOne({ ...doc, rev: 1 });
    const stats = () => svc.client.getStats({ orgId: org });
    await eventually(stats, (s) => s.total === 1, 30_000, "the housekeeping pass to count it");
    await eventually(
      async () => new Set(reader.events.filter((e) => e.orgId === org).map((e) => `${e.id}|${e.type}`)),
      (ids) => ids.size === 2,
      20_000,
      "the takeover to announce it (vulnerability.found and .high, through the outbox)",
    );
    // Redelivered: the same finding, nothing more.
    expect(await svc.app.ingest(orphan)).toEqual({ findingId: doc._id, created: false });
    expect(await svc.app.ingest({ ...orphan, detection_id: "orphan-2" })).toEqual({ findingId: doc._id, created: false });
    expect((await svc.client.listFindings({ orgId: org })).pageInfo?.total).toBe(1);
    expect((await stats()).total).toBe(1);
    await new Promise((r) => setTimeout(r, 1000));
    expect(new Set(reader.events.filter((e) => e.orgId === org).map((e) => e.id)).size).toBe(2);
  });

  it("serialises concurrent triage writes: no change is lost", async () => {
    const org = unique("org");
    const { findingId } = await svc.app.ingest(
      facts({ detection_id: "conc-1", org_id: org, target: "conc.example.test", template_id: "conc", title: "Concurrency" }),
    );
    await Promise.all(Array.from({ length: 15 }, (_, i) => svc.client.addComment({ orgId: org, findingId, text: `comment ${i}`, actor: alice })));
    const f = (await svc.client.getFinding({ orgId: org, findingId })).finding!;
    expect(f.comments.map((c) => c.text).sort()).toEqual(Array.from({ length: 15 }, (_, i) => `comment ${i}`).sort());
    expect(f.history.filter((h) => h.action === "commented")).toHaveLength(15);
  });
});
