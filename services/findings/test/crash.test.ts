import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { KafkaBus, RpcServer } from "@vulnscan/kit";
import { MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { unique } from "../../../test/support/names.js";
import { collectEvents, detection, eventually, newBus, publish, startFakeAuth, startFindings, testEnv, type TestService } from "./support.js";

const MAIN = fileURLToPath(new URL("../src/main.ts", import.meta.url));
let auth: RpcServer;
let bus: KafkaBus;
let mongo: MongoClient;
let child: ChildProcess | undefined;
let svc: TestService | undefined;

beforeAll(async () => {
  auth = await startFakeAuth();
  bus = newBus(inject("kafkaBrokers"));
  mongo = new MongoClient(inject("mongoUrl"));
  await mongo.connect();
});
afterAll(async () => {
  child?.kill("SIGKILL");
  await svc?.running.stop();
  await bus?.close();
  await mongo?.close();
  await auth?.close();
});

describe("a crash mid-batch", () => {
  it("loses no detection and duplicates no finding: the killed process's uncommitted records are redelivered", { timeout: 180_000 }, async () => {
    const env = testEnv(inject("kafkaBrokers"), inject("mongoUrl"), auth.port, { KAFKA_PARTITIONS: "1", SHUTDOWN_TIMEOUT_MS: "2000", INGEST_BATCH_SIZE: "10" });
    const org = unique("org");
    const N = 120;
    const ds = Array.from({ length: N }, (_, i) => detection(org, { templateId: `check-${i}`, scanId: "scan_crash" }));
    const findings = mongo.db(env.MONGO_DB!).collection("findings");

    // The real process, killed with SIGKILL while it works through the batch.
    child = spawn(process.execPath, ["--import", "tsx", MAIN], { env: { ...process.env, ...env }, stdio: "ignore" });
    await bus.ensureTopics([env.DETECTIONS_TOPIC!, env.FINDING_EVENTS_TOPIC!]);
    const reader = await collectEvents(bus, env.FINDING_EVENTS_TOPIC!);
    await publish(bus, env.DETECTIONS_TOPIC!, ds);
    const before = await eventually(
      () => findings.countDocuments({ org_id: org }),
      (n) => n >= 10,
      90_000,
      "some findings before the kill",
    );
    child.kill("SIGKILL");
    await new Promise((r) => child!.once("exit", r));
    const atKill = await findings.countDocuments({ org_id: org });
    expect(atKill).toBeLessThan(N); // the kill really landed mid-batch
    expect(atKill).toBeGreaterThanOrEqual(before);

    // Restart (same database, topic and consumer group): everything arrives, once.
    svc = await startFindings(env);
    await eventually(
      () => findings.countDocuments({ org_id: org }),
      (n) => n === N,
      120_000,
      "all findings after the restart",
    );
    const list = await svc.client.listFindings({ orgId: org, pagination: { perPage: 100 } });
    expect(list.pageInfo?.total).toBe(N);
    const all = await findings.find({ org_id: org }).toArray();
    expect(new Set(all.map((f) => f.template_id)).size).toBe(N);
    expect(all.every((f) => f.history.length === 1 && f.status === "open")).toBe(true);

    // One vulnerability.found (and one .high) per finding: republishing after the crash reuses the stored envelope id.
    const counts = () => {
      const byId = new Map(reader.events.filter((e) => e.orgId === org).map((e) => [e.id, e.type]));
      const c: Record<string, number> = {};
      for (const t of byId.values()) c[t] = (c[t] ?? 0) + 1;
      return c;
    };
    await eventually(
      async () => counts(),
      (c) => c["vulnerability.found"] === N && c["vulnerability.high"] === N,
      60_000,
      "events after the restart",
    );
    await reader.stop();
  });
});
