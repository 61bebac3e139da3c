import { createLogger, type RpcServer } from "@vulnscan/kit";
import { MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { unique } from "../../../test/support/names.js";
import { addDays, contributionOf, dayOf, dayRange, deltaOf, WEEK_DAYS } from "../src/domain/rollup.js";
import type { Stats } from "../src/domain/stats.js";
import { detection as facts } from "../src/domain/test-fixtures.js";
import { SEVERITIES, STATUSES, type DetectionFacts, type FindingDoc, type Status } from "../src/domain/types.js";
import { rebuildRollups, Rollups } from "../src/storage/rollups.js";
import { startFakeAuth, startFindings, testEnv, type TestService } from "./support.js";

let auth: RpcServer;
let svc: TestService;
let mongo: MongoClient;

beforeAll(async () => {
  auth = await startFakeAuth();
  svc = await startFindings(testEnv(inject("kafkaBrokers"), inject("mongoUrl"), auth.port));
  mongo = new MongoClient(inject("mongoUrl"));
  await mongo.connect();
});
afterAll(async () => {
  await mongo?.close();
  await svc?.running.stop();
  await auth?.close();
});

/** Stats counted from the findings themselves, with the documented day semantics (docs/decisions.md). */
function counted(all: FindingDoc[], opts: { from?: Date; to?: Date; target?: string }, today: string): Stats {
  const r = dayRange(opts.from, opts.to);
  const fs = all.filter((f) => {
    const d = dayOf(f.detected_at);
    return (opts.target === undefined || f.target === opts.target) && (!r.first || d >= r.first) && (!r.end || d < r.end);
  });
  const weekFirst = addDays(today, -(WEEK_DAYS - 1));
  const resolved = fs.filter((f) => f.status === "resolved");
  const tally = (keys: readonly string[], of: (f: FindingDoc) => string) => Object.fromEntries(keys.map((k) => [k, fs.filter((f) => of(f) === k).length]));
  const tools = new Map<string, number>();
  for (const f of fs) tools.set(f.tool, (tools.get(f.tool) ?? 0) + 1);
  const minutes = resolved.reduce((a, f) => a + (f.resolution_minutes ?? 0), 0);
  return {
    total: fs.length,
    by_severity: tally(SEVERITIES, (f) => f.severity) as Stats["by_severity"],
    by_status: tally(STATUSES, (f) => f.status) as Stats["by_status"],
    by_tool: Object.fromEntries([...tools].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))),
    trends: {
      new_this_week: fs.filter((f) => dayOf(f.detected_at) >= weekFirst).length,
      resolved_this_week: resolved.filter((f) => dayOf(f.resolved_at!) >= weekFirst).length,
      average_resolution_days: resolved.length ? Math.round((minutes / resolved.length / 1440) * 100) / 100 : 0,
    },
  };
}

/** A small deterministic PRNG, so a failure can be replayed from its seed. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe("stats from rollups", () => {
  it("equal counting the findings after random creates, re-detections, status changes, bulk updates and redeliveries, under concurrency", {
    timeout: 240_000,
  }, async () => {
    const org = unique("org");
    const seed = Date.now() % 100_000;
    const rand = rng(seed);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
    const targets = ["a.example.test", "b.example.test", "10.0.0.1", "c$odd.example"];
    const tools = ["nuclei", "nmap", "tls", "web.headers"];
    const now = Date.now();
    let n = 0;
    const detectionOf = (templ: number, target: string): DetectionFacts =>
      facts({
        detection_id: `${org}-${n++}`,
        org_id: org,
        scan_id: `scan_${Math.floor(rand() * 5)}`,
        target,
        template_id: `t-${templ}`,
        severity: pick(SEVERITIES),
        tool: pick(tools),
        // Spread over ~70 days so day, month and week boundaries all matter.
        detected_at: new Date(now - Math.floor(rand() * 70 * 24) * 3600_000),
      });
    const sent: DetectionFacts[] = [];
    const ids = new Set<string>();

    for (let round = 0; round < 4; round++) {
      // Concurrent ingestion batches (new findings, repeats of known fingerprints, redeliveries) and triage.
      const batches = Array.from({ length: 3 }, () =>
        Array.from({ length: 25 }, () => {
          if (sent.length > 0 && rand() < 0.15) return pick(sent); // redelivery of an applied detection
          const d = detectionOf(Math.floor(rand() * 60), pick(targets)); // ~60×4 fingerprints: many repeats
          sent.push(d);
          return d;
        }),
      );
      const known = [...ids];
      // A move to accepted carries an expiry and a justification (issue 28).
      const acceptance = (status: Status) =>
        status === "accepted" ? { expires_at: new Date(Date.now() + 30 * 86_400_000), justification: "test" } : undefined;
      const triage = Array.from({ length: Math.min(10, known.length) }, () => {
        const status = pick(STATUSES);
        return svc.app.update(org, pick(known), { status }, { user_id: "u", api_key_id: "", display_name: "tester" }, acceptance(status));
      });
      const bulkStatus = pick<Status>(["resolved", "open", "accepted"]);
      const bulk =
        known.length > 0
          ? svc.app.bulk(
              org,
              Array.from({ length: 15 }, () => pick(known)),
              { status: bulkStatus },
              { user_id: "u", api_key_id: "", display_name: "tester" },
              acceptance(bulkStatus),
            )
          : Promise.resolve();
      const results = await Promise.all([...batches.map((b) => svc.app.ingestBatch(b)), ...triage, bulk]);
      for (const r of results.slice(0, batches.length) as { findingId: string }[][]) for (const x of r) ids.add(x.findingId);
      expect((results.at(-1) as { failed?: unknown[] } | undefined)?.failed ?? []).toEqual([]);
    }
    // About one seed in thirty leaves nothing resolved: resolve one, so resolution counts are always checked.
    await svc.app.update(org, [...ids][0]!, { status: "resolved" }, { user_id: "u", api_key_id: "", display_name: "tester" });
    const findings = mongo.db(svc.config.MONGO_DB).collection<FindingDoc>("findings");
    // A writer slowed past half its lease (a loaded machine) leaves its intent to the housekeeping
    // pass, which takes it over once the lease is out: counted then.
    const intents = mongo.db(svc.config.MONGO_DB).collection("rollup_intents");
    for (const deadline = Date.now() + 30_000; (await intents.countDocuments({})) > 0 && Date.now() < deadline; ) {
      await svc.store.rollups.recover();
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(await intents.countDocuments({})).toBe(0);
    // What the writers released leaves no guard behind once their guards are dropped (each housekeeping pass, and on stop).
    // The service's housekeeping keeps writing meanwhile: these findings were detected up to 70 days
    // ago, so it announces their SLA breaches (a change that moves the breach counts, under its own
    // intent), and a settle can come just before such a release. So settle until nothing is left.
    const rollupDocs = mongo.db(svc.config.MONGO_DB).collection("rollups");
    const guards = async () => ({
      scopes: await rollupDocs.countDocuments({ org_id: org, "m.0": { $exists: true } }),
      findings: await findings
        .find({ org_id: org, "rollup_pending.0": { $exists: true } }, { projection: { rollup_pending: 1, sla_breach_announced: 1 } })
        .toArray(),
    });
    let left = await guards();
    for (const deadline = Date.now() + 15_000; (left.scopes > 0 || left.findings.length > 0) && Date.now() < deadline; left = await guards()) {
      await svc.store.settle();
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(left.scopes).toBe(0);
    expect(left.findings).toEqual([]);
    const all = await findings.find({ org_id: org }).toArray();
    expect(all.length).toBe(ids.size);
    expect(all.some((f) => f.status === "resolved")).toBe(true);

    const today = dayOf(new Date());
    const check = async (opts: { from?: Date; to?: Date; target?: string }) =>
      // The rollups' part of the stats (the SLA counts are counted at read time, not kept).
      expect({ ...(await svc.app.stats(org, opts)), sla: undefined }, `seed ${seed} ${JSON.stringify(opts)}`).toEqual({
        ...counted(all, opts, today),
        sla: undefined,
      });
    const dayMs = 24 * 3600_000;
    const filters = [
      {},
      { target: "b.example.test" },
      { target: "c$odd.example" },
      { from: new Date(now - 10 * dayMs) },
      { to: new Date(now - 40 * dayMs) },
      { from: new Date(now - 65 * dayMs), to: new Date(now - 3 * dayMs), target: "10.0.0.1" },
      { from: new Date(Date.parse(`${addDays(today, -60).slice(0, 7)}-01T00:00:00Z`)), to: new Date(Date.parse(`${today.slice(0, 7)}-01T00:00:00Z`)) }, // whole months
    ];
    for (const f of filters) await check(f);

    // The list's total comes from the same rollups for the filters they keep.
    const list = await svc.app.list(org, { status: "open", severity: "high" }, undefined, undefined, 1, 20);
    expect(list.total).toBe(all.filter((f) => f.status === "open" && f.severity === "high").length);
    const byTool = await svc.app.list(org, { tool: "web.headers" }, undefined, undefined, 1, 20);
    expect(byTool.total).toBe(all.filter((f) => f.tool === "web.headers").length);

    // Rebuilt from the findings: still the same.
    await rebuildRollups(mongo.db(svc.config.MONGO_DB), org);
    for (const f of filters) await check(f);

    // A writer that stopped after its finding update: its intent is taken over once its lease is
    // out. The first takeover stops after the `$inc`s (before the findings drop the entry), the
    // second, on two replicas at once, finishes: the change is counted once.
    const db = mongo.db(svc.config.MONGO_DB);
    const one = all.find((f) => f.status !== "resolved")!;
    const to: Status = one.status === "accepted" ? "open" : "accepted";
    const intent = svc.store.rollups.intent();
    const [entry] = await intent.add([{ org, f: one._id, d: deltaOf(contributionOf(one), contributionOf({ ...one, status: to }))! }]);
    await findings.updateOne({ _id: one._id }, { $set: { status: to }, $push: { rollup_pending: entry!.id } } as never);
    const expire = () => db.collection("rollup_intents").updateOne({ _id: intent.id as never }, { $set: { until: new Date(0) } });
    const logger = createLogger("rollups-test", "silent");
    /** The intent is gone: the service's own housekeeping may have taken it over first (a pass here then finds it leased). */
    const takenOver = async (id: string) => {
      const left = () => db.collection("rollup_intents").countDocuments({ _id: id as never });
      for (const deadline = Date.now() + 30_000; (await left()) > 0 && Date.now() < deadline; ) {
        await new Rollups(db, logger).recover();
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(await left()).toBe(0);
    };
    const crashing = new Rollups(db, logger);
    (crashing as unknown as { findings: { updateMany: () => never } }).findings.updateMany = () => {
      throw new Error("stopped");
    };
    await expire();
    await expect(crashing.recover()).rejects.toThrow("stopped");
    await expire();
    await Promise.all([new Rollups(db, logger).recover(), new Rollups(db, logger).recover()]);
    await takenOver(intent.id);
    const after = await findings.find({ org_id: org }).toArray();
    expect(after.find((f) => f._id === one._id)).toMatchObject({ status: to, rollup_pending: [] });
    for (const f of filters)
      expect({ ...(await svc.app.stats(org, f)), sla: undefined }, JSON.stringify(f)).toEqual({ ...counted(after, f, today), sla: undefined });

    // A writer that stopped after counting its change, before deleting its intent: the takeover
    // counts it again under the guards, so nothing twice, and cleans up.
    const two = after.find((f) => f.status !== "resolved" && f._id !== one._id)!;
    const next: Status = two.status === "accepted" ? "open" : "accepted";
    const writer = new Rollups(db, logger);
    (writer as unknown as { intents: { deleteOne: () => never } }).intents.deleteOne = () => {
      throw new Error("stopped");
    };
    const late = writer.intent();
    const [own] = await late.add([{ org, f: two._id, d: deltaOf(contributionOf(two), contributionOf({ ...two, status: next }))! }]);
    await findings.updateOne({ _id: two._id }, { $set: { status: next }, $push: { rollup_pending: own!.id } } as never);
    late.committed.push(own!);
    await expect(writer.finish(late)).rejects.toThrow("stopped");
    await db.collection("rollup_intents").updateOne({ _id: late.id as never }, { $set: { until: new Date(0) } });
    await new Rollups(db, logger).recover();
    await takenOver(late.id);
    const last = await findings.find({ org_id: org }).toArray();
    expect(last.find((f) => f._id === two._id)).toMatchObject({ status: next, rollup_pending: [] });
    for (const f of filters)
      expect({ ...(await svc.app.stats(org, f)), sla: undefined }, JSON.stringify(f)).toEqual({ ...counted(last, f, today), sla: undefined });

    // An intent written by an earlier version (its entries as documents, not JSON texts) is taken over alike.
    const three = last.find((f) => f.status !== "resolved" && f._id !== one._id && f._id !== two._id)!;
    const third: Status = three.status === "accepted" ? "open" : "accepted";
    const legacy = { id: "ri_legacy:0", org, f: three._id, d: deltaOf(contributionOf(three), contributionOf({ ...three, status: third }))! };
    await db.collection("rollup_intents").insertOne({ _id: "ri_legacy" as never, entries: [legacy], until: new Date(0) });
    await findings.updateOne({ _id: three._id }, { $set: { status: third }, $push: { rollup_pending: legacy.id } } as never);
    await takenOver("ri_legacy");
    const final = await findings.find({ org_id: org }).toArray();
    expect(final.find((f) => f._id === three._id)).toMatchObject({ status: third, rollup_pending: [] });
    for (const f of filters)
      expect({ ...(await svc.app.stats(org, f)), sla: undefined }, JSON.stringify(f)).toEqual({ ...counted(final, f, today), sla: undefined });
  });
});
