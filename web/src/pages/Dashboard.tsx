import { api } from "../api/client.js";
import type { Page, Quota, Scan, Stats } from "../api/types.js";
import { Bars, ErrorNote, Loading, useLoad, when } from "../components/ui.js";
import { href } from "../router.js";
import { words } from "../words.js";
import { FirstScan } from "./Scans.js";

export function Dashboard() {
  const stats = useLoad(() => api<Stats>("/api/v1/findings/stats"), []);
  const quota = useLoad(() => api<Quota>("/api/v1/scans/quota"), []);
  // Only asked when there is no finding: has this organization scanned at all?
  const noFindings = stats.data?.total === 0;
  const scans = useLoad(() => (noFindings ? api<Page<Scan>>("/api/v1/scans", { query: { per_page: 1 } }) : Promise.resolve(undefined)), [noFindings]);
  const s = stats.data;
  const q = quota.data;
  return (
    <section aria-labelledby="dash-title">
      <h1 id="dash-title">Dashboard</h1>
      <ErrorNote error={stats.error ?? quota.error} />
      {noFindings && scans.data?.total === 0 && (
        <div className="card first-run">
          <FirstScan />
        </div>
      )}
      {noFindings && scans.data && scans.data.total > 0 && (
        <p className="notice">
          No findings yet: your scans found nothing so far, or are still running. <a href="#/scans">See your scans</a>.
        </p>
      )}
      <div className="tiles">
        <a className="tile" href={href("/findings", { status: "open" })}>
          <span className="tile-value">{s ? s.by_status.open : "…"}</span>
          <span className="tile-label">Open findings</span>
        </a>
        <a className="tile critical" href={href("/findings", { severity: "critical" })}>
          <span className="tile-value">{s ? s.by_severity.critical : "…"}</span>
          <span className="tile-label">Critical</span>
        </a>
        <div className="tile">
          <span className="tile-value">{s ? s.trends.new_this_week : "…"}</span>
          <span className="tile-label">New this week</span>
        </div>
        <div className="tile">
          <span className="tile-value">{s ? s.trends.resolved_this_week : "…"}</span>
          <span className="tile-label">Resolved this week</span>
        </div>
        <div className="tile">
          <span className="tile-value">{s ? s.trends.average_resolution_days.toFixed(1) : "…"}</span>
          <span className="tile-label">Avg. days to resolve</span>
        </div>
      </div>
      {s ? (
        <div className="grid2">
          {/* Empty bars say nothing on a first run: the call to start a scan above does. */}
          {s.total > 0 && (
            <>
              <div className="card">
                <Bars title={`Findings by severity (${s.total} total)`} data={s.by_severity} kind="sev" wordsOf="severity" />
              </div>
              <div className="card">
                <Bars title="Findings by status" data={s.by_status} kind="status" wordsOf="findingStatus" />
              </div>
            </>
          )}
          {Object.keys(s.by_tool).length > 0 && (
            <div className="card">
              <Bars title="Findings by tool" data={s.by_tool} />
            </div>
          )}
          <QuotaCard q={q} />
        </div>
      ) : (
        stats.loading && <Loading what="statistics" />
      )}
    </section>
  );
}

function QuotaCard({ q }: { q: Quota | undefined }) {
  if (!q) return null;
  const pct = q.monthly_limit ? Math.min(100, Math.round((q.used_this_month / q.monthly_limit) * 100)) : 0;
  return (
    <section className="card" aria-labelledby="quota-title">
      <h2 id="quota-title">Scan quota</h2>
      <p>
        Plan <strong>{words("plan", q.plan)}</strong>
      </p>
      {q.monthly_limit === null ? (
        <p>{q.used_this_month} scans this month · unlimited</p>
      ) : (
        <>
          <div className="progress" role="progressbar" aria-label="Scans used this month" aria-valuenow={pct} aria-valuemin={0} aria-valuemax={100}>
            <span style={{ width: `${pct}%` }} />
          </div>
          <p>
            {q.used_this_month} used · {q.remaining} remaining of {q.monthly_limit}
          </p>
        </>
      )}
      <p className="muted">Resets {when(q.resets_at)}</p>
    </section>
  );
}
