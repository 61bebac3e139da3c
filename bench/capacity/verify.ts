// Before measuring: the API answers what was seeded (totals, a finding, a scan), and the
// organization's raised request limits have reached the gateway (or the run would meet 429s).
import { type DatasetSpec, type Expected, findingId, scanId, statusOf } from "./dataset.js";
import { setTimeout as sleep } from "node:timers/promises";

export interface Answer {
  status: number;
  ms: number;
  body: Record<string, unknown> | undefined;
  headers: Headers | undefined;
  /** Set when no answer came (timeout, connection refused). */
  error?: string;
}

/** One GET through the gateway as the customer sends it. */
export async function get(origin: string, path: string, headers: Record<string, string>, timeoutMs = 60_000): Promise<Answer> {
  const t0 = performance.now();
  try {
    const res = await fetch(`${origin}${path}`, { headers, signal: AbortSignal.timeout(timeoutMs) });
    const text = await res.text();
    let body: Record<string, unknown> | undefined;
    try {
      body = JSON.parse(text);
    } catch {
      body = { text };
    }
    return { status: res.status, ms: performance.now() - t0, body, headers: res.headers };
  } catch (err) {
    return { status: 0, ms: performance.now() - t0, body: undefined, headers: undefined, error: (err as Error).message };
  }
}

/** Waits until the gateway applies the organization's raised hourly limit (auth events reach it over Kafka). */
export async function waitForLimits(origin: string, headers: Record<string, string>, perHour: number, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  let seen = "";
  while (Date.now() < until) {
    const a = await get(origin, "/api/v1/scans/quota", headers, 15_000);
    seen = `${a.status} x-ratelimit-limit=${a.headers?.get("x-ratelimit-limit")}`;
    if (a.status === 200 && Number(a.headers?.get("x-ratelimit-limit")) === perHour) return;
    await sleep(500);
  }
  throw new Error(`the gateway did not apply the raised request limit within ${timeoutMs / 1000} s (last: ${seen})`);
}

export interface Check {
  what: string;
  ok: boolean;
  /** "timeout" when the gateway or this client gave up: not wrong, only not known. */
  unknown?: boolean;
  detail: string;
}

/**
 * The API's view of the seeded organization. A list that does not answer within the gateway's
 * upstream timeout (a slow database) is reported as unknown, not wrong; a wrong total is wrong.
 */
export async function verifySeed(origin: string, headers: Record<string, string>, spec: DatasetSpec, want: Expected): Promise<Check[]> {
  const checks: Check[] = [];
  const total = async (what: string, path: string, expected: number) => {
    const a = await get(origin, path, headers);
    const got = a.body?.total;
    const timedOut = a.status === 504 || a.status === 0;
    checks.push({
      what,
      ok: a.status === 200 && got === expected,
      ...(timedOut ? { unknown: true } : {}),
      detail: a.status === 200 ? `total ${got}, expected ${expected} (${a.ms.toFixed(0)} ms)` : `answered ${a.status || a.error} after ${a.ms.toFixed(0)} ms`,
    });
  };
  await total("scans list total", "/api/v1/scans?per_page=1", spec.scans);
  await total(
    "findings list total (severity=high, status=open)",
    "/api/v1/findings?severity=high&status=open&per_page=1",
    want.byStatusSeverity["open|high"] ?? 0,
  );
  await total("findings list total", "/api/v1/findings?per_page=1", spec.findings);

  const fid = findingId(spec, 0);
  const f = await get(origin, `/api/v1/findings/${fid}`, headers);
  checks.push({
    what: "finding detail",
    ok: f.status === 200 && f.body?.id === fid && f.body?.status === statusOf(0),
    detail: `${f.status || f.error}: ${f.body?.id} ${f.body?.status} (${f.ms.toFixed(0)} ms)`,
  });
  const sid = scanId(spec, spec.scans - 1);
  const s = await get(origin, `/api/v1/scans/${sid}`, headers);
  const found = want.perScan[spec.scans - 1]?.total;
  checks.push({
    what: "scan detail",
    ok: s.status === 200 && s.body?.id === sid && s.body?.status === "completed" && s.body?.progress === 100 && s.body?.vulnerabilities_found === found,
    detail: `${s.status || s.error}: ${s.body?.id} ${s.body?.status} progress ${s.body?.progress}, vulnerabilities_found ${s.body?.vulnerabilities_found} (expected ${found}) (${s.ms.toFixed(0)} ms)`,
  });
  return checks;
}
