// The load generator of bench/load, in a process of its own so it shares no event loop with the
// servers it measures: `clients` concurrent clients, each one keep-alive connection (undici
// Client) with one organization's credentials, sending requests one after another (after
// `thinkMs` each, the first at a random moment within it or the first 5 s) for `durationS` seconds, cycling
// through their organization's paths.
// Every answer is recorded: latency and status per plan, and the rate-limit headers per
// organization (tally.ts). Reads its plan from the JSON file named by argv[2], writes its
// summary as JSON to the file named by argv[3].
import { readFileSync, writeFileSync } from "node:fs";
import { Client } from "undici";
import { Tally } from "./tally.js";
import { setTimeout as sleep } from "node:timers/promises";

export interface ClientSpec {
  org: string;
  plan: string;
  headers: Record<string, string>;
  paths: string[];
  thinkMs: number;
  /** Whether the gateway's rate-limit headers are expected (false for the bare baseline). */
  limited: boolean;
}

export interface LoadPlan {
  origin: string;
  durationS: number;
  clients: ClientSpec[];
}

export interface PlanFigures {
  requests: number;
  statuses: Record<string, number>;
  /** Latency of every answer, of the admitted ones (2xx), and of the rate-limited 429s, ms. */
  all: Percentiles;
  ok: Percentiles;
  limited: Percentiles;
}

export interface Percentiles {
  n: number;
  p50: number;
  p99: number;
  max: number;
}

export interface LoadSummary {
  elapsedS: number;
  /** Answers per 10 s of the run by class (2xx, 429, 5xx, other), to see when failures happened. */
  timeline: Record<string, number>[];
  plans: Record<string, PlanFigures>;
  tally: { orgs: Tally["orgs"]; violations: string[] };
  /** A few 5xx and transport errors, with their bodies, for the report. */
  errors: string[];
}

const percentiles = (values: number[]): Percentiles => {
  const s = Float64Array.from(values).sort();
  const at = (p: number) => (s.length ? s[Math.min(s.length - 1, Math.floor(p * s.length))]! : Number.NaN);
  return { n: s.length, p50: at(0.5), p99: at(0.99), max: s.length ? s[s.length - 1]! : Number.NaN };
};

const RAMP_MS = 5000;

async function run(plan: LoadPlan): Promise<LoadSummary> {
  const tally = new Tally();
  const errors: string[] = [];
  const lat = new Map<string, { all: number[]; ok: number[]; limited: number[]; statuses: Record<string, number> }>();
  const timeline: Record<string, number>[] = [];
  const start = performance.now();
  const end = start + plan.durationS * 1000;

  const loop = async (spec: ClientSpec, index: number) => {
    const client = new Client(plan.origin, { pipelining: 1, keepAliveTimeout: 30_000 });
    const bucket = lat.get(spec.plan) ?? { all: [], ok: [], limited: [], statuses: {} };
    lat.set(spec.plan, bucket);
    let i = index;
    // Clients start at random moments within their pause (at least the first 5 s), as
    // independent users would, not all in the same millisecond.
    await sleep(Math.random() * Math.max(RAMP_MS, spec.thinkMs));
    try {
      while (performance.now() < end) {
        const path = spec.paths[i++ % spec.paths.length]!;
        const t0 = performance.now();
        let status: number;
        try {
          const res = await client.request({ method: "GET", path, headers: spec.headers });
          const text = await res.body.text();
          const ms = performance.now() - t0;
          status = res.statusCode;
          bucket.all.push(ms);
          if (status < 300) bucket.ok.push(ms);
          let body: unknown;
          if (String(res.headers["content-type"] ?? "").includes("json") && text) body = JSON.parse(text);
          if (status >= 500 && errors.length < 20) errors.push(`${status} GET ${path} (${spec.org}): ${text.slice(0, 300)}`);
          const seen = { status, body, header: (n: string) => res.headers[n] as string | undefined };
          if (status === 429) bucket.limited.push(ms);
          if (spec.limited) tally.record(spec.org, seen);
        } catch (err) {
          status = 0;
          if (errors.length < 20) errors.push(`transport error GET ${path} (${spec.org}): ${(err as Error).message}`);
          await sleep(100);
        }
        bucket.statuses[status] = (bucket.statuses[status] ?? 0) + 1;
        const at = Math.floor((t0 - start) / 10_000);
        const slot = timeline[at] ?? {};
        timeline[at] = slot;
        const kind = status === 429 ? "429" : status >= 500 || status === 0 ? "5xx" : status < 300 ? "2xx" : "other";
        slot[kind] = (slot[kind] ?? 0) + 1;
        if (spec.thinkMs > 0) await sleep(spec.thinkMs);
      }
    } finally {
      await client.close().catch(() => undefined);
    }
  };
  await Promise.all(plan.clients.map((c, i) => loop(c, i)));
  const elapsedS = (performance.now() - start) / 1000;
  const plans: Record<string, PlanFigures> = {};
  for (const [name, b] of lat) {
    plans[name] = { requests: b.all.length, statuses: b.statuses, all: percentiles(b.all), ok: percentiles(b.ok), limited: percentiles(b.limited) };
  }
  return { elapsedS, timeline: Array.from(timeline, (t) => t ?? {}), plans, tally: { orgs: tally.orgs, violations: tally.violations }, errors };
}

const [input, output] = process.argv.slice(2);
if (!input || !output) throw new Error("usage: clients.ts <plan.json> <summary.json>");
writeFileSync(output, JSON.stringify(await run(JSON.parse(readFileSync(input, "utf8")) as LoadPlan)));
