import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { startStack } from "../../scripts/stack/index.js";
import { startSystem } from "../../scripts/system.js";
import { startLab } from "../../test/lab/lab.js";
import { admin, Api } from "../../test/support/api.js";

/*
 * Retest latency (issue 28): request → verdict of `POST /api/v1/findings/{id}/retest`, per check
 * kind, through the whole system (gateway, findings, Kafka, a scanner worker, back) against the
 * scan lab's weak host. One scan of the lab makes the findings; then, for each kind, up to
 * --findings findings are retested --rounds times each, one at a time (a finding has at most one
 * retest running). The verdict is read by polling the retest list every --poll ms, so each figure
 * is at most that much late.
 *
 *   npx tsx bench/retest/run.ts [--rounds 5] [--findings 3] [--poll 25]
 *
 * Needs what `npm test` needs (it starts Kafka and the database like the tests do) and root for
 * the lab's namespace (else the lab runs on loopback ports).
 */

const { values: args } = parseArgs({
  options: { rounds: { type: "string", default: "5" }, findings: { type: "string", default: "3" }, poll: { type: "string", default: "25" } },
});
const ROUNDS = Number(args.rounds);
const PER_KIND = Number(args.findings);
const POLL_MS = Number(args.poll);

const KIND_OF: Record<string, string> = { templates: "template", "cve-match": "cve", web: "web", tls: "tls", ssh: "ssh", datastores: "datastore" };
const kindOf = (f: { tool: string; template_id: string }) => (f.template_id.startsWith("cve:") ? "cve" : KIND_OF[f.tool]);

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? Number.NaN;
};

const log = (m: string) => process.stderr.write(`${m}\n`);
const stack = await startStack({ log });
const lab = await startLab();
const logDir = fs.mkdtempSync(path.join(os.tmpdir(), "vulnscan-bench-retest-"));
const prefix = `bench_retest_${Date.now().toString(36)}_`;
const system = await startSystem({
  kafkaBrokers: stack.kafkaBrokers,
  mongoUrl: stack.mongoUrl,
  dbPrefix: prefix,
  logDir,
  // LOG_LEVEL=info shows each retest's start and verdict in the scanner's log (logDir, printed at the end).
  logLevel: process.env.LOG_LEVEL ?? "warn",
  env: { SCAN_ALLOWED_NETWORKS: lab.allowedNetworks, OUTBOX_RELAY_INTERVAL_MS: "300", SCANNER_HEARTBEAT_MS: "1000" },
});
try {
  const env = { MONGO_URL: stack.mongoUrl, MONGO_DB: `${prefix}auth` };
  const org = admin(["create-org", "--name", "bench retest", "--plan", "enterprise"], env);
  admin(["create-user", "--org", org.id, "--email", "bench-retest@example.test", "--password", "correct horse battery staple"], env);
  const api = new Api(system.gatewayUrl);
  const token = (await api.token("bench-retest@example.test", "correct horse battery staple")).body.access_token as string;
  const authed = api.withToken(token);

  const t = lab.targets;
  const ports = [t.http, t.tlsWeak, t.ssh, t.ftp, t.redis, t.mongoLike, t.memcached].map((e) => e.port).filter((p) => p > 0);
  const scan = (await authed.post("/api/v1/scans", { target: lab.weak.address, ports: ports.join(","), scan_type: "full", authorized: true })).body;
  for (;;) {
    const s = (await authed.get(`/api/v1/scans/${scan.id}`)).body;
    if (s.status === "completed") break;
    if (s.status === "failed" || s.status === "cancelled") throw new Error(`scan ${s.status}`);
    await new Promise((r) => setTimeout(r, 500));
  }
  const all = (await authed.get(`/api/v1/findings?scan_id=${scan.id}&per_page=100`)).body.items as {
    id: string;
    tool: string;
    template_id: string;
    severity: string;
    affected_component: string;
  }[];
  const byKind = new Map<string, typeof all>();
  for (const f of all) {
    const k = kindOf(f);
    if (!k || f.severity === "info") continue;
    if ((byKind.get(k)?.length ?? 0) < PER_KIND) byKind.set(k, [...(byKind.get(k) ?? []), f]);
  }

  const rows: { kind: string; n: number; p50: number; p99: number; max: number; verdicts: string }[] = [];
  for (const [kind, findings] of [...byKind.entries()].sort()) {
    const ms: number[] = [];
    const verdicts = new Map<string, number>();
    for (let round = 0; round < ROUNDS; round++) {
      for (const f of findings) {
        const t0 = performance.now();
        const started = await authed.post(`/api/v1/findings/${f.id}/retest`, {});
        if (started.status !== 202) throw new Error(`retest of ${f.template_id} refused: ${JSON.stringify(started.body)}`);
        for (;;) {
          const r = (
            (await authed.get(`/api/v1/findings/${f.id}/retests?per_page=1`)).body.items as {
              id: string;
              status: string;
              verdict: string;
              reason: string | null;
            }[]
          )[0];
          if (r && r.id === started.body.id && r.status === "completed") {
            const took = performance.now() - t0;
            ms.push(took);
            // A slow one is named, so an outlier can be looked into rather than averaged away.
            if (took > 10_000)
              log(`slow retest: ${kind} ${f.template_id} on ${f.affected_component}: ${Math.round(took)} ms, ${r.verdict}${r.reason ? ` (${r.reason})` : ""}`);
            verdicts.set(r.verdict, (verdicts.get(r.verdict) ?? 0) + 1);
            break;
          }
          await new Promise((res) => setTimeout(res, POLL_MS));
        }
      }
    }
    rows.push({
      kind,
      n: ms.length,
      p50: Math.round(pct(ms, 50)),
      p99: Math.round(pct(ms, 99)),
      max: Math.round(Math.max(...ms)),
      verdicts: [...verdicts].map(([v, n]) => `${v} ${n}`).join(", "),
    });
  }
  console.log(`retest latency, request → verdict (${lab.mode} lab, ${ROUNDS} rounds, poll ${POLL_MS} ms, ${os.cpus().length} CPUs)`);
  console.log("| check kind | retests | p50 ms | p99 ms | max ms | verdicts |");
  console.log("|---|---|---|---|---|---|");
  for (const r of rows) console.log(`| ${r.kind} | ${r.n} | ${r.p50} | ${r.p99} | ${r.max} | ${r.verdicts} |`);
} finally {
  log(`service logs: ${logDir}`);
  await system.stop();
  await lab.stop();
  await stack.stop();
}
