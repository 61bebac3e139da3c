import fs from "node:fs";
import fsp from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { MongoClient } from "mongodb";
import { afterAll, describe, expect, it } from "vitest";
import { FERRETDB_SCALE_NOTE, startStack, type StackHandle } from "./index.ts";

function accepts(hostPort: string): Promise<boolean> {
  const [host, port] = hostPort.split(":");
  return new Promise((resolve) => {
    const socket = net.connect({ host: host!, port: Number(port) });
    socket.setTimeout(2_000, () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

// Processes are found by the data dir on their command line: every server this module starts
// names it, and no process of anyone else can.
function processesUsing(dir: string): string[] {
  const found: string[] = [];
  for (const pid of fs.readdirSync("/proc").filter((e) => /^\d+$/.test(e))) {
    try {
      const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
      if (cmdline.includes(dir)) found.push(`${pid} ${cmdline}`);
    } catch {
      // exited while we looked
    }
  }
  return found;
}

describe("local stack", () => {
  let stack: StackHandle | undefined;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "vulnscan-stack-test-"));

  afterAll(async () => {
    await stack?.stop();
    await fsp.rm(dataDir, { recursive: true, force: true });
  });

  it("refuses the removed VULNSCAN_FERRETDB_BACKEND rather than ignore it", async () => {
    const before = process.env.VULNSCAN_FERRETDB_BACKEND;
    process.env.VULNSCAN_FERRETDB_BACKEND = "sqlite";
    // Checked before anything starts or any await, so the env is restored right after the call.
    const started = startStack({ dataDir, log: () => undefined });
    if (before === undefined) delete process.env.VULNSCAN_FERRETDB_BACKEND;
    else process.env.VULNSCAN_FERRETDB_BACKEND = before;
    await expect(started).rejects.toThrow(/VULNSCAN_FERRETDB_BACKEND="sqlite" is no longer read: .*FerretDB runs on PostgreSQL only/);
  });

  it("starts Kafka and a MongoDB-protocol server on loopback, and stops them", { timeout: 300_000 }, async () => {
    stack = await startStack({ dataDir, log: () => undefined });
    const startedHere = !process.env.KAFKA_BROKERS && !process.env.MONGO_URL;

    if (!process.env.KAFKA_BROKERS) expect(stack.kafkaBrokers).toMatch(/^127\.0\.0\.1:\d+$/);
    if (!process.env.MONGO_URL) expect(stack.mongoUrl).toMatch(/^mongodb:\/\/127\.0\.0\.1:\d+\/$/);
    // FerretDB (always on PostgreSQL) hands the services its PostgreSQL, for the declared field
    // types and indexes; it alone carries the scale note of the ready line.
    if (stack.mongoKind === "ferretdb") {
      expect(stack.serviceEnv.FERRETDB_POSTGRESQL_URL).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres$/);
      expect(stack.mongoServer).toMatch(/^FerretDB v\S+ \(PostgreSQL /);
      expect(stack.scaleNote).toBe(FERRETDB_SCALE_NOTE);
    } else {
      expect(stack.serviceEnv.FERRETDB_POSTGRESQL_URL).toBeUndefined();
      expect(stack.scaleNote).toBeUndefined();
    }
    // clamd for grc's malware check, when it could be installed: its address goes to the services.
    if (stack.clamavServer) expect(await accepts(stack.serviceEnv.CLAMD_ADDRESS!)).toBe(true);
    else expect(stack.serviceEnv.CLAMD_ADDRESS).toBeUndefined();
    if (process.env.MONGO_URL) expect(stack.mongoKind).toBe("external");
    else expect(stack.mongoKind).toBe(stack.mongoServer.startsWith("FerretDB") ? "ferretdb" : "mongodb");
    const mongoHostPort = new URL(stack.mongoUrl).host;
    expect(await accepts(stack.kafkaBrokers.split(",")[0]!)).toBe(true);
    expect(await accepts(mongoHostPort)).toBe(true);

    const client = new MongoClient(stack.mongoUrl, { serverSelectionTimeoutMS: 10_000 });
    try {
      const collection = client.db(`stack_test_${process.pid}`).collection<{ _id: string; n: number }>("docs");
      await collection.insertOne({ _id: "one", n: 1 });
      expect(await collection.findOne({ _id: "one" })).toEqual({ _id: "one", n: 1 });
      await client.db(`stack_test_${process.pid}`).dropDatabase();
    } finally {
      await client.close();
    }

    if (startedHere) expect(processesUsing(dataDir).length).toBeGreaterThan(0);
    await stack.stop();
    await stack.stop(); // idempotent
    expect(processesUsing(dataDir)).toEqual([]);
    if (!process.env.KAFKA_BROKERS) expect(await accepts(stack.kafkaBrokers)).toBe(false);
    if (!process.env.MONGO_URL) expect(await accepts(mongoHostPort)).toBe(false);
  });
});
