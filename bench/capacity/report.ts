// The figures: one table of throughput and latency (every route beside the bare route of the
// same run), one of CPU per request per process, the goals marked met or missed, and JSON.
import fs from "node:fs";
import type { RouteResult } from "./measure.js";
import { LOAD_GENERATOR } from "./measure.js";

export interface Goal {
  what: string;
  route: string;
  figure: string;
  met: boolean;
}

/** A latency of a pass, unknown (NaN) when nothing was answered. */
const lat = (r: RouteResult["capacity"], p: "p50" | "p99") => (r.completed > 0 ? r[p] : Number.NaN);

/** Errors of a pass: non-2xx answers plus requests that got no answer. */
const failed = (r: RouteResult["capacity"]) => r.non2xx + r.errors;

/**
 * The goals: findings and scans lists ≥ 300 req/s, finding and scan detail ≥ 500 req/s, every
 * read route p99 ≤ 100 ms at 100 req/s. A pass with errors misses its goal whatever its figures.
 */
export function judge(results: RouteResult[], rate: number): Goal[] {
  const goals: Goal[] = [];
  const min: Record<string, number> = { findingsList: 300, findingsTriage: 300, scansList: 300, findingDetail: 500, scanDetail: 500 };
  for (const r of results) {
    const floor = min[r.key];
    if (floor === undefined) continue;
    const errs = failed(r.capacity);
    goals.push({
      what: `${r.label} ≥ ${floor} req/s`,
      route: r.key,
      figure: `${r.capacity.rps.toFixed(0)} req/s${errs ? `, ${errs} errors` : ""}`,
      met: r.capacity.rps >= floor && errs === 0,
    });
  }
  for (const r of results) {
    if (min[r.key] === undefined) continue;
    const errs = failed(r.fixed);
    goals.push({
      what: `${r.label} p99 ≤ 100 ms at ${rate} req/s`,
      route: r.key,
      figure: `${r.fixed.completed > 0 ? `p99 ${r.fixed.p99.toFixed(0)} ms` : "no answers"} at ${r.fixed.rps.toFixed(0)} req/s${errs ? `, ${errs} errors` : ""}`,
      met: r.fixed.completed > 0 && r.fixed.p99 <= 100 && errs === 0 && r.fixed.rps >= rate * 0.9,
    });
  }
  return goals;
}

const num = (x: number, digits = 0) => (Number.isFinite(x) ? x.toFixed(digits) : "-");
const pad = (s: string, n: number) => s.padStart(n);

/** Short column names for the processes. */
const SHORT: Record<string, string> = {
  gateway: "gateway",
  auth: "auth",
  "scan-orchestrator": "orch",
  scanner: "scanner",
  findings: "findings",
  grc: "grc",
  "webhook-dispatcher": "webhook",
  ferretdb: "ferretdb",
  mongod: "mongod",
  postgres: "postgres",
  "bare fastify": "bare",
  [LOAD_GENERATOR]: "loadgen",
};

export function tables(results: RouteResult[], opts: { connections: number; duration: number; rate: number }): string {
  const bare = results.find((r) => r.key === "bare");
  const w = Math.max(...results.map((r) => r.label.length), 10);
  const lines: string[] = [];
  lines.push(
    `${"route".padEnd(w)} | ${pad("req/s", 7)} ${pad("×bare", 6)} ${pad("p50 ms", 8)} ${pad("p99 ms", 8)} ${pad("non-2xx", 7)} ${pad("no answ", 7)} | ${pad(`@${opts.rate}/s p50`, 11)} ${pad("p99", 7)} ${pad("req/s", 6)} ${pad("errors", 6)} | status`,
  );
  lines.push("-".repeat(lines[0]!.length));
  for (const r of results) {
    const c = r.capacity;
    const f = r.fixed;
    const errs = failed(c) + failed(f);
    const codes = Object.entries({ ...c.statusCodes })
      .filter(([k]) => !k.startsWith("2"))
      .map(([k, v]) => `${v}×${k}`);
    if (c.timeouts) codes.push(`${c.timeouts} timeouts`);
    lines.push(
      `${r.label.padEnd(w)} | ${pad(num(c.rps), 7)} ${pad(bare ? num(c.rps / bare.capacity.rps, 3) : "-", 6)} ${pad(num(lat(c, "p50"), 1), 8)} ${pad(num(lat(c, "p99"), 1), 8)} ${pad(String(c.non2xx), 7)} ${pad(String(c.errors), 7)} | ${pad(num(lat(f, "p50"), 1), 11)} ${pad(num(lat(f, "p99"), 1), 7)} ${pad(num(f.rps), 6)} ${pad(String(failed(f)), 6)} | ${errs ? `ERRORS ${codes.join(", ")}` : "ok"}`,
    );
  }
  lines.push("");
  const names = Object.keys(results[0]?.cpuPerRequest ?? {});
  lines.push(`CPU milliseconds per request (capacity pass; /proc utime+stime of each process and its children, divided by the requests answered)`);
  const head = `${"route".padEnd(w)} | ${names.map((n) => pad(SHORT[n] ?? n.slice(0, 8), 8)).join(" ")} | ${pad("system", 7)} ${pad("other %", 7)}`;
  lines.push(head);
  lines.push("-".repeat(head.length));
  for (const r of results) {
    const system = names
      .filter((n) => n !== LOAD_GENERATOR && n !== "bare fastify")
      .reduce((s, n) => s + (Number.isFinite(r.cpuPerRequest[n]!) ? r.cpuPerRequest[n]! : 0), 0);
    const sys = r.key === "bare" ? (r.cpuPerRequest["bare fastify"] ?? Number.NaN) : system;
    lines.push(
      `${r.label.padEnd(w)} | ${names.map((n) => pad(num(r.cpuPerRequest[n] ?? Number.NaN, 3), 8)).join(" ")} | ${pad(num(sys, 3), 7)} ${pad(num(r.otherShare * 100), 7)}`,
    );
  }
  lines.push(
    `("system": the gateway, services and database together (for the bare route: the bare server); "other %": the machine's CPU used during the pass by processes not measured here (other programs, Kafka), as a share of the whole machine.)`,
  );
  return lines.join("\n");
}

export function goalsText(goals: Goal[]): string {
  const w = Math.max(...goals.map((g) => g.what.length));
  return goals.map((g) => `${g.what.padEnd(w)}  ${g.figure.padEnd(34)}  ${g.met ? "met" : "MISSED"}`).join("\n");
}

export function writeJson(file: string, data: unknown): void {
  fs.writeFileSync(file, `${JSON.stringify(data, (_, v) => (typeof v === "number" && !Number.isFinite(v) ? null : v), 2)}\n`);
}
