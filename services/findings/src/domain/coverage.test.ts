import { describe, expect, it } from "vitest";
import { applyDetection, newFinding } from "./changes.js";
import { autoResolution, diffScans, judge, ScanDiffs, type CoverageDoc, type CoverageStore, type DiffFinding } from "./coverage.js";
import { detection } from "./test-fixtures.js";
import { severityRank, type FindingDoc } from "./types.js";

const started = new Date("2026-02-01T10:00:00Z");

const host = (over: Partial<CoverageDoc> = {}): CoverageDoc => ({
  _id: "scan_b:1:10.0.0.5",
  org_id: "org_a",
  scan_id: "scan_b",
  attempt: 1,
  outcome: "completed",
  started_at: started,
  target: "app.example.test",
  address: "10.0.0.5",
  alive: true,
  host_checks: ["portscan"],
  ports: [
    { port: 443, outcome: "answered", checks: ["cve", "telnet", "tls", "web", "template:git-config"] },
    { port: 6379, outcome: "silent", checks: [] },
  ],
  recorded_at: started,
  ...over,
});

const finding = (id: string, over: Partial<FindingDoc> = {}): FindingDoc => ({
  ...newFinding(detection(), `fp-${id}`, id, new Date("2026-01-10T10:00:00Z")).doc,
  ...over,
});

const row = (f: FindingDoc): DiffFinding => ({ ...f, severity_rank: severityRank(f.severity) });

describe("judge: did a scan cover a finding's check on its component", () => {
  it("covers a check that ran on a port that answered", () => {
    expect(judge({ target: "app.example.test", tool: "tls", template_id: "tls-weak-cipher", affected_component: "nginx on 10.0.0.5:443" }, [host()])).toEqual({
      covered: true,
    });
    expect(
      judge({ target: "APP.example.test", tool: "templates", template_id: "git-config", affected_component: "https://app.example.test/.git/config" }, [host()]),
    ).toEqual({
      covered: true,
    });
    // Version matching ran on the identified service: a CVE no longer matched is covered.
    expect(
      judge({ target: "10.0.0.5", tool: "cve-match", template_id: "cve:CVE-2021-1", affected_component: "nginx 1.18 on 10.0.0.5:443" }, [host()]).covered,
    ).toBe(true);
    expect(judge({ target: "app.example.test", tool: "portscan", template_id: "net-open-ports", affected_component: "10.0.0.5" }, [host()]).covered).toBe(true);
  });

  it("says why not otherwise", () => {
    const f = { target: "app.example.test", tool: "templates", template_id: "redis-unauth", affected_component: "tcp://10.0.0.5:6379" };
    expect(judge(f, [])).toEqual({ covered: false, reason: "no_coverage" });
    expect(judge(f, [host({ alive: false, ports: [] })])).toEqual({ covered: false, reason: "host_down" });
    expect(judge({ ...f, target: "other.example.test" }, [host()])).toEqual({ covered: false, reason: "host_down" });
    expect(judge({ ...f, affected_component: "tcp://10.0.0.5:11211" }, [host()])).toEqual({ covered: false, reason: "port_not_open" });
    expect(judge(f, [host()])).toEqual({ covered: false, reason: "no_answer" });
    expect(judge({ ...f, affected_component: "https://10.0.0.5:443/x" }, [host()])).toEqual({ covered: false, reason: "check_not_run" });
    expect(judge({ ...f, tool: "ssh", affected_component: "ssh on 10.0.0.5:443" }, [host()])).toEqual({ covered: false, reason: "check_not_run" });
    // Nothing a single check produces (a correlation note) is ever judged absent.
    expect(judge({ ...f, tool: "correlator", affected_component: "tcp://10.0.0.5:443" }, [host()])).toEqual({ covered: false, reason: "check_not_run" });
  });

  it("takes any record of the scan (a retried attempt's, another host's)", () => {
    const f = { target: "app.example.test", tool: "templates", template_id: "redis-unauth", affected_component: "tcp://10.0.0.5:6379" };
    const retry = host({ attempt: 2, ports: [{ port: 6379, outcome: "answered", checks: ["template:redis-unauth"] }] });
    expect(judge(f, [host(), retry]).covered).toBe(true);
  });
});

describe("diffScans", () => {
  it("puts every finding of either scan in exactly one bucket", () => {
    const kept = finding("f_kept", { scan_ids: ["scan_a", "scan_b"] });
    const fixed = finding("f_fixed", { scan_ids: ["scan_a"], tool: "tls", affected_component: "nginx on 10.0.0.5:443" });
    const gone = finding("f_gone", { scan_ids: ["scan_a"], tool: "templates", template_id: "redis-unauth", affected_component: "tcp://10.0.0.5:6379" });
    const fresh = finding("f_new", { scan_ids: ["scan_b"] });
    const back = finding("f_back", { scan_ids: ["scan_0", "scan_b"], regressed_in: ["scan_b"], severity: "critical" });
    const d = diffScans({
      newerScanId: "scan_b",
      newer: [kept, fresh, back].map(row),
      older: [kept, fixed, gone].map(row),
      coverage: [host()],
    });
    const ids = (b: { finding: DiffFinding }[]) => b.map((i) => i.finding._id);
    expect(ids(d.unchanged)).toEqual(["f_kept"]);
    expect(ids(d.new)).toEqual(["f_new"]);
    expect(ids(d.regressed)).toEqual(["f_back"]);
    expect(ids(d.fixed)).toEqual(["f_fixed"]);
    expect(d.not_covered).toEqual([{ finding: expect.objectContaining({ _id: "f_gone" }), reason: "no_answer" }]);
    expect(d.coverage_recorded).toBe(true);
  });

  it("calls nothing fixed without coverage", () => {
    const old = finding("f_old", { scan_ids: ["scan_a"] });
    const d = diffScans({ newerScanId: "scan_b", newer: [], older: [row(old)], coverage: [] });
    expect(d.fixed).toEqual([]);
    expect(d.not_covered.map((i) => i.reason)).toEqual(["no_coverage"]);
    expect(d.coverage_recorded).toBe(false);
  });
});

describe("ScanDiffs.diff with the coverage a completion waits for", () => {
  /** Records arrive as the consumer stores them; the findings reads count how often they ran. */
  function setup() {
    const records: CoverageDoc[] = [];
    const reads: string[] = [];
    const store: CoverageStore = {
      put: async (doc) => void records.push(doc),
      ofScan: async (_org, scanId) => records.filter((r) => r.scan_id === scanId),
      scanFindings: async (_org, scanId) => {
        reads.push(scanId);
        return scanId === "scan_a" ? [row(finding("f_fixed", { scan_ids: ["scan_a"], tool: "tls", affected_component: "nginx on 10.0.0.5:443" }))] : [];
      },
      activeOnTarget: async () => [],
    };
    const diffs = new ScanDiffs({ coverage: store, findings: {} as never, policy: { autoResolve: async () => false }, now: () => started });
    return { records, reads, diffs };
  }

  it("is not ready, and reads no findings, until every record of the attempt is stored", async () => {
    const { records, reads, diffs } = setup();
    const when = { attempt: 2, records: 2 };
    records.push(host({ attempt: 1 }), host({ attempt: 2 }));
    expect(await diffs.diff("org_a", "scan_b", "scan_a", when)).toBeNull();
    expect(reads).toEqual([]);
    records.push(host({ _id: "scan_b:2:10.0.0.6", attempt: 2, address: "10.0.0.6", target: "10.0.0.6" }));
    const d = await diffs.diff("org_a", "scan_b", "scan_a", when);
    expect(d?.fixed.map((i) => i.finding._id)).toEqual(["f_fixed"]);
  });

  it("compares at once when nothing is waited for (the REST diff)", async () => {
    const { diffs } = setup();
    const d = await diffs.diff("org_a", "scan_b", "scan_a");
    expect(d?.not_covered.map((i) => i.reason)).toEqual(["no_coverage"]);
  });
});

describe("autoResolution", () => {
  const now = new Date("2026-02-01T11:00:00Z");
  const covered = () => finding("f1", { tool: "tls", affected_component: "nginx on 10.0.0.5:443", last_seen_at: new Date("2026-01-31T10:00:00Z") });

  it("resolves as not_detected what a later completed scan covered and did not detect", () => {
    const c = autoResolution(covered(), "scan_b", [host()], now)!;
    expect(c.set).toMatchObject({ status: "resolved", resolution: "not_detected", resolved_at: now });
    expect(c.set.history!.slice(-2)).toEqual([
      { action: "status_changed", from: "open", to: "resolved", user: "system", timestamp: now },
      { action: "not_detected", from: null, to: "scan_b", user: "system", timestamp: now },
    ]);
    expect(c.events.map((e) => e.type)).toEqual(expect.arrayContaining(["vulnerability.status_changed", "vulnerability.resolved"]));
  });

  it("leaves alone what was not covered, was detected, was seen later, or is not open", () => {
    const f = covered();
    expect(autoResolution({ ...f, affected_component: "tcp://10.0.0.5:6379", tool: "templates" }, "scan_b", [host()], now)).toBeNull();
    expect(autoResolution({ ...f, scan_ids: [...f.scan_ids, "scan_b"] }, "scan_b", [host()], now)).toBeNull();
    expect(autoResolution({ ...f, last_seen_at: new Date(started.getTime() + 1000) }, "scan_b", [host()], now)).toBeNull();
    for (const status of ["resolved", "false_positive", "accepted"] as const) expect(autoResolution({ ...f, status }, "scan_b", [host()], now)).toBeNull();
    expect(autoResolution({ ...f, status: "in_progress" }, "scan_b", [host()], now)?.set.status).toBe("resolved");
  });

  it("a re-detection reopens it and records the scan as a regression", () => {
    const f = covered();
    const resolved = { ...f, ...autoResolution(f, "scan_b", [host()], now)!.set } as FindingDoc;
    const c = applyDetection(resolved, detection({ detection_id: "det-2", scan_id: "scan_c" }), now)!;
    expect(c.set).toMatchObject({ status: "open", resolution: null, regressed_in: ["scan_c"] });
  });
});
