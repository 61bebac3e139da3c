// Every metric the Grafana dashboard (deploy/grafana) and the chart's PrometheusRule name is
// exported by some service: the whole system is started as the e2e tests do and each process's
// admin port is scraped (/metrics), so a renamed or dropped metric fails here, not on a dashboard.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { lintAndRender } from "../../scripts/k8s/chart-check.ts";
import { ensureHelm } from "../../scripts/k8s/tools.ts";
import { ROOT, type RunningSystem, startSystem } from "../../scripts/system.ts";
import { unique } from "../support/names.js";

const DASHBOARD = path.join(ROOT, "deploy", "grafana", "vulnscan-dashboard.json");

/** PromQL words that are not metric names. */
const KEYWORDS = new Set(["by", "without", "on", "ignoring", "group_left", "group_right", "and", "or", "unless", "offset", "bool", "inf", "nan"]);

/**
 * Metric names in a PromQL expression: label matchers, grouping clauses, strings, durations
 * and numbers are dropped; a word followed by "(" is a function or aggregation.
 */
function metricNames(expr: string): string[] {
  const stripped = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, " ")
    .replace(/\{[^}]*\}/g, " ")
    .replace(/\[[^\]]*\]/g, " ")
    .replace(/\b\d[\d.e+]*[a-z]*/gi, " ") // numbers and durations (0.99, 5m)
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, " ");
  const names = new Set<string>();
  for (const m of stripped.matchAll(/([A-Za-z_:][A-Za-z0-9_:]*)(\s*\()?/g)) {
    const [, word, call] = m;
    if (!word || call || KEYWORDS.has(word.toLowerCase())) continue;
    names.add(word);
  }
  return [...names];
}

/** Names a /metrics page serves: every family (# TYPE) and every sample name (_bucket, _count, ...). */
function exportedNames(page: string): Set<string> {
  const names = new Set<string>();
  for (const line of page.split("\n")) {
    const type = /^# TYPE (\S+) /.exec(line);
    if (type?.[1]) names.add(type[1]);
    const sample = /^([A-Za-z_:][A-Za-z0-9_:]*)[{ ]/.exec(line);
    if (sample?.[1]) names.add(sample[1]);
  }
  return names;
}

function dashboardExprs(): string[] {
  const dash = JSON.parse(fs.readFileSync(DASHBOARD, "utf8")) as { panels: { title: string; targets?: { expr: string }[] }[] };
  return dash.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr));
}

let system: RunningSystem;

beforeAll(async () => {
  system = await startSystem({
    kafkaBrokers: inject("kafkaBrokers"),
    mongoUrl: inject("mongoUrl"),
    dbPrefix: `${unique("metrics")}_`,
    logDir: fs.mkdtempSync(path.join(os.tmpdir(), "vulnscan-metrics-logs-")),
    logLevel: "warn",
  });
}, 240_000);

afterAll(async () => {
  await system?.stop();
});

describe("metrics named by the dashboard and the alerts", () => {
  it("the PromQL name extraction finds metric names and nothing else", () => {
    expect(
      metricNames('histogram_quantile(0.99, sum by (service, le) (rate(rpc_server_duration_seconds_bucket{namespace=~"$ns",code="ok"}[5m]))) > 1'),
    ).toEqual(["rpc_server_duration_seconds_bucket"]);
    expect(metricNames("sum(rate(a_total[5m])) / sum without (x) (b_total offset 5m) and on (y) c")).toEqual(["a_total", "b_total", "c"]);
  });

  it("are all exported on some service's admin port", async () => {
    const helm = await ensureHelm((line) => console.log(`[k8s] ${line}`));
    const rule = (await lintAndRender(helm, { label: "rules", args: ["--set", "prometheusRule.enabled=true"] })).find((m) => m.kind === "PrometheusRule") as
      | { spec: { groups: { rules: { alert: string; expr: string }[] }[] } }
      | undefined;
    expect(rule, "the chart renders a PrometheusRule").toBeDefined();
    const ruleExprs = (rule?.spec.groups ?? []).flatMap((g) => g.rules.map((r) => r.expr));

    const exported = new Map<string, Set<string>>();
    for (const [name, proc] of Object.entries(system.processes)) {
      const res = await fetch(`${proc.adminUrl}/metrics`);
      expect(res.status, name).toBe(200);
      exported.set(name, exportedNames(await res.text()));
    }
    // A histogram with no observation yet serves only its family line (# TYPE x histogram):
    // x_bucket, x_count and x_sum count as served when the family is.
    const family = (metric: string) => metric.replace(/_(bucket|count|sum)$/, "");
    const servedBy = (metric: string) => [...exported].filter(([, names]) => names.has(metric) || names.has(family(metric))).map(([svc]) => svc);

    const named = new Map<string, string>();
    for (const expr of dashboardExprs()) for (const m of metricNames(expr)) named.set(m, "dashboard");
    for (const expr of ruleExprs) for (const m of metricNames(expr)) named.set(m, named.has(m) ? "dashboard and rules" : "rules");
    const missing = [...named].filter(([m]) => servedBy(m).length === 0).map(([m, where]) => `${m} (${where})`);
    console.log(
      `[k8s] ${named.size} metrics named by the dashboard (${dashboardExprs().length} queries) and the PrometheusRule (${ruleExprs.length} alerts); ${named.size - missing.length} exported`,
    );
    expect(missing, "metrics no service exports").toEqual([]);
    expect(named.size).toBeGreaterThan(10);
  }, 120_000);
});
