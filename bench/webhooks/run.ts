// Webhook delivery throughput and event→delivered latency: the dispatcher (Kafka → fan-out →
// durable schedule → signed HTTPS attempt) beside a bare undici + HMAC loop sending the same
// requests (body and both signatures, built by the dispatcher's payload module) to the same local
// HTTPS receiver, in the same run, with nothing stored.
//
//   npx tsx bench/webhooks/run.ts [--rate 200] [--paced 2000] [--burst 2000] [--concurrency 64]
//
// Paced: `paced` events at `rate`/s; latency = receipt at the receiver - the event's timestamp
// (for the bare loop, the moment the send was due). Burst: `burst` events produced at once;
// deliveries/s = burst / (last receipt - first produce). Starts its own Kafka and database (or uses
// KAFKA_BROKERS / MONGO_URL), and re-runs itself once with NODE_EXTRA_CA_CERTS so the dispatcher
// trusts the receiver's throwaway CA.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { create, toBinary } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { createLogger, createRpcClient, KafkaBus, loadConfig, runService, Topics } from "@vulnscan/kit";
import { EventEnvelopeSchema } from "@vulnscan/proto/vulnscan/events/v1/envelope_pb.js";
import { WebhookService } from "@vulnscan/proto/vulnscan/webhooks/v1/webhooks_service_pb.js";
import { MongoClient } from "mongodb";
import { Agent, request } from "undici";
import { type ReceivedDelivery, startReceiver } from "../../examples/webhook-receiver/receiver.js";
import { startStack } from "../../scripts/stack/index.js";
import { compose } from "../../services/webhook-dispatcher/src/compose.js";
import { configSchema } from "../../services/webhook-dispatcher/src/config.js";
import { deliveryHeaders, webhookBody } from "../../services/webhook-dispatcher/src/domain/payload.js";
import { dispatchEventOf } from "../../services/webhook-dispatcher/src/events/envelope.js";
import { selfSignedCertificates } from "../../test/support/tls.js";
import { setTimeout as sleep } from "node:timers/promises";

const { values: args } = parseArgs({
  options: {
    rate: { type: "string", default: "200" },
    paced: { type: "string", default: "2000" },
    burst: { type: "string", default: "2000" },
    concurrency: { type: "string", default: "64" },
  },
});
const RATE = Number(args.rate);
const PACED = Number(args.paced);
const BURST = Number(args.burst);
const CONCURRENCY = Number(args.concurrency);
const SECRET = "bench-webhook-secret";
const ORG = "org_bench";
const log = (s: string) => process.stderr.write(`[bench] ${s}\n`);

if (!process.env.BENCH_TLS_DIR) {
  const dir = mkdtempSync(path.join(tmpdir(), "vulnscan-webhooks-bench-"));
  const tls = selfSignedCertificates(dir, "127.0.0.1");
  const child = spawnSync(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: "inherit",
    env: { ...process.env, NODE_EXTRA_CA_CERTS: tls.ca, BENCH_TLS_DIR: dir },
  });
  rmSync(dir, { recursive: true, force: true });
  process.exit(child.status ?? 1);
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

/** Arrivals per path prefix: latency from the body's timestamp, and the last arrival. */
class Arrivals {
  readonly latencies = new Map<string, number[]>();
  readonly last = new Map<string, number>();
  record(d: ReceivedDelivery) {
    const key = d.path.split("/")[1] ?? "";
    const now = d.receivedAt.getTime();
    const list = this.latencies.get(key) ?? [];
    list.push(now - Date.parse(JSON.parse(d.body).timestamp));
    this.latencies.set(key, list);
    this.last.set(key, now);
  }
  count(key: string) {
    return this.latencies.get(key)?.length ?? 0;
  }
  async until(key: string, n: number, timeoutMs = 180_000) {
    const deadline = Date.now() + timeoutMs;
    while (this.count(key) < n) {
      if (Date.now() > deadline) throw new Error(`${key}: ${this.count(key)}/${n} delivered in time`);
      await sleep(20);
    }
  }
  reset(key: string) {
    this.latencies.delete(key);
    this.last.delete(key);
  }
}

const arrivals = new Arrivals();
const dir = process.env.BENCH_TLS_DIR;
const tls = { key: readFileSync(path.join(dir, "key.pem")), cert: readFileSync(path.join(dir, "cert.pem")) };
const receiver = await startReceiver({ ...tls, secret: SECRET, onDelivery: (d) => void arrivals.record(d) });
const stack = await startStack({ log });
Object.assign(process.env, stack.serviceEnv);
const stamp = Date.now().toString(36);
const config = loadConfig(configSchema, {
  ...process.env,
  MONGO_URL: stack.mongoUrl,
  MONGO_DB: `bench_webhooks_${stamp}`,
  KAFKA_BROKERS: stack.kafkaBrokers,
  RPC_PORT: "0",
  ADMIN_PORT: "0",
  HOST: "127.0.0.1",
  LOG_LEVEL: "error",
  CONSUMER_GROUP: `bench-webhooks-${stamp}`,
  WEBHOOK_ALLOW_PRIVATE_URLS: "true",
  WEBHOOK_ALLOWED_NETWORKS: "127.0.0.0/8",
  DELIVERY_CONCURRENCY: String(CONCURRENCY),
});
const unlimited = { webhookPlan: async () => ({ enabled: true }) };
const svc = await runService({ name: "webhook-dispatcher", config, compose: (ctx) => compose(ctx, { plans: unlimited }) });
await svc.started;
const rpc = createRpcClient(WebhookService, `http://127.0.0.1:${svc.rpcPort}`);
const { webhook } = await rpc.createWebhook({ orgId: ORG, name: "bench", url: `${receiver.url}/dispatcher`, events: ["scan.completed"], secret: SECRET });

/** What the dispatcher's database says when deliveries are missing: counts by status and error. */
async function diagnose(): Promise<string> {
  const mongo = new MongoClient(stack.mongoUrl);
  try {
    const groups = await mongo
      .db(config.MONGO_DB)
      .collection("deliveries")
      .aggregate([{ $match: { webhook_id: webhook!.id } }, { $group: { _id: { status: "$status", error: "$error", attempts: "$attempts" }, n: { $sum: 1 } } }])
      .toArray();
    return groups.map((g) => `${JSON.stringify(g._id)}: ${g.n}`).join("; ");
  } finally {
    await mongo.close();
  }
}

const bus = new KafkaBus({ clientId: `bench-${stamp}`, brokers: [stack.kafkaBrokers], logger: createLogger("bench", "silent") });

let seq = 0;
function envelope() {
  const n = seq++;
  return create(EventEnvelopeSchema, {
    id: `evt_bench_${stamp}_${n}`,
    type: "scan.completed",
    orgId: ORG,
    occurredAt: timestampFromDate(new Date()),
    payload: {
      case: "scanCompleted",
      value: { scanId: `scan_${n}`, target: "bench.example.test", status: "completed", durationSeconds: 60, findings: { total: 1 } },
    },
  });
}
const raw = (e: ReturnType<typeof envelope>) => ({
  topic: Topics.scanEvents,
  key: e.payload.case === "scanCompleted" ? e.payload.value.scanId : e.id,
  value: Buffer.from(toBinary(EventEnvelopeSchema, e)),
  messageType: EventEnvelopeSchema.typeName,
});

// The consumer group starts at the newest offset once it has joined: wait until one event arrives.
for (let i = 0; arrivals.count("dispatcher") === 0; i++) {
  if (i > 300) throw new Error("the dispatcher never delivered the warm-up event");
  await bus.publishRawMany([raw(envelope())]);
  await sleep(200);
}
await sleep(2000);
arrivals.reset("dispatcher");

/** Runs `fire(i)` for i < n at `rate`/s without waiting for each (ticks of 10 ms). */
async function paced(n: number, rate: number, fire: (batch: number) => Promise<void>) {
  const t0 = performance.now();
  let sent = 0;
  const inflight: Promise<void>[] = [];
  while (sent < n) {
    const due = Math.min(n, Math.floor(((performance.now() - t0) / 1000) * rate) + 1);
    if (due > sent) {
      inflight.push(fire(due - sent));
      sent = due;
    }
    await sleep(10);
  }
  await Promise.all(inflight);
}

async function dispatcherRun(n: number, rate: number | undefined) {
  const t0 = Date.now();
  if (rate) await paced(n, rate, (k) => bus.publishRawMany(Array.from({ length: k }, () => raw(envelope()))));
  else for (let i = 0; i < n; i += 500) await bus.publishRawMany(Array.from({ length: Math.min(500, n - i) }, () => raw(envelope())));
  await arrivals.until("dispatcher", n).catch(async (err) => {
    throw new Error(`${(err as Error).message}; dispatcher history: ${await diagnose()}`);
  });
  return summarize("dispatcher", n, t0);
}

const agent = new Agent({ connections: CONCURRENCY, keepAliveTimeout: 10_000 });
let bareSeq = 0;
/** One request as the dispatcher sends it (the same body and headers, both signatures), with nothing stored. */
async function bareSend() {
  const id = `delivery_bare_${stamp}_${bareSeq++}`;
  const body = webhookBody(id, dispatchEventOf(envelope())!);
  const res = await request(`${receiver.url}/bare`, {
    method: "POST",
    dispatcher: agent,
    body,
    headers: deliveryHeaders({ deliveryId: id, event: "scan.completed", body, secret: SECRET, now: new Date() }),
  });
  await res.body.dump();
}

/** The bare loop: `CONCURRENCY` senders at most, like the dispatcher's gate. */
async function bareRun(n: number, rate: number | undefined) {
  const t0 = Date.now();
  let active = 0;
  const waiters: (() => void)[] = [];
  const send = async () => {
    while (active >= CONCURRENCY) await new Promise<void>((r) => waiters.push(r));
    active++;
    try {
      await bareSend();
    } finally {
      active--;
      waiters.shift()?.();
    }
  };
  if (rate) await paced(n, rate, async (k) => void (await Promise.all(Array.from({ length: k }, send))));
  else await Promise.all(Array.from({ length: n }, send));
  await arrivals.until("bare", n);
  return summarize("bare", n, t0);
}

function summarize(key: string, n: number, t0: number) {
  const lat = [...(arrivals.latencies.get(key) ?? [])].sort((a, b) => a - b);
  const seconds = ((arrivals.last.get(key) ?? Date.now()) - t0) / 1000;
  arrivals.reset(key);
  return { perSecond: n / seconds, p50: pct(lat, 50), p99: pct(lat, 99) };
}

log(`paced: ${PACED} events at ${RATE}/s, dispatcher`);
const dPaced = await dispatcherRun(PACED, RATE);
log("paced: bare loop");
const bPaced = await bareRun(PACED, RATE);
log(`burst: ${BURST} events, dispatcher`);
const dBurst = await dispatcherRun(BURST, undefined);
log("burst: bare loop");
const bBurst = await bareRun(BURST, undefined);

const f = (v: number) => (Number.isFinite(v) ? v.toFixed(0) : "n/a");
const lines = [
  "",
  `## Webhook delivery benchmark (${stack.mongoServer}, ${stack.kafkaServer}; concurrency ${CONCURRENCY})`,
  "",
  `| run | deliveries/s | event→delivered p50 (ms) | p99 (ms) |`,
  "|---|---|---|---|",
  `| dispatcher, ${PACED} events paced at ${RATE}/s | ${f(dPaced.perSecond)} | ${f(dPaced.p50)} | ${f(dPaced.p99)} |`,
  `| bare undici + HMAC, same pacing | ${f(bPaced.perSecond)} | ${f(bPaced.p50)} | ${f(bPaced.p99)} |`,
  `| dispatcher, burst of ${BURST} | ${f(dBurst.perSecond)} | ${f(dBurst.p50)} | ${f(dBurst.p99)} |`,
  `| bare undici + HMAC, burst of ${BURST} | ${f(bBurst.perSecond)} | ${f(bBurst.p50)} | ${f(bBurst.p99)} |`,
  "",
  `Burst throughput ratio dispatcher / bare: ${(dBurst.perSecond / bBurst.perSecond).toFixed(2)}×`,
  "",
];
process.stdout.write(lines.join("\n"));

await svc.stop();
await bus.close();
await agent.close();
await receiver.close();
await stack.stop();
