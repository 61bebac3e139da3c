import { useEffect, useState } from "react";
import { api, stream } from "../api/client.js";
import { FRAMEWORKS, type Page, SCAN_STATUSES, SCAN_TYPES, type Scan, type ScanDetail } from "../api/types.js";
import { ApiError } from "../api/errors.js";
import { formValues, text, useApiForm } from "../components/forms.js";
import { Badge, Checks, Choice, ErrorNote, Field, Loading, PagedTable, Submit, useLoad, when } from "../components/ui.js";
import { href, navigate, pageOf, type Route } from "../router.js";
import { frameworkName, optionsOf, scanSummary, words } from "../words.js";
import { ScanComparison } from "./scan-diff.js";

const toIso = (local: string) => (local ? new Date(local).toISOString() : undefined);

export function ScanList({ route }: { route: Route }) {
  const q = route.query;
  const filters = { status: q.get("status") ?? "", target: q.get("target") ?? "", from: q.get("from") ?? "", to: q.get("to") ?? "" };
  const page = pageOf(q);
  const list = useLoad(
    () =>
      api<Page<Scan>>("/api/v1/scans", {
        query: { page, per_page: 20, status: filters.status, target: filters.target, from_date: toIso(filters.from), to_date: toIso(filters.to) },
      }),
    [q.toString()],
  );
  const go = (over: Record<string, string | number>) => navigate("/scans", { ...filters, page, ...over });

  return (
    <section aria-labelledby="scans-title">
      <div className="heading">
        <h1 id="scans-title">Scans</h1>
        <a className="button primary" href="#/scans/new">
          New scan
        </a>
      </div>
      {/* Keyed by the URL's filters, so the form always shows what the list is filtered by. */}
      <form
        key={Object.values(filters).join("|")}
        className="filters"
        aria-label="Filter scans"
        onSubmit={(e) => go({ ...formValues(e, ["status", "target", "from", "to"]), page: 1 })}
      >
        <Choice label="Status" name="status" options={optionsOf("scanStatus", SCAN_STATUSES)} defaultValue={filters.status} any="Any" />
        <Field label="Target">{(id) => <input id={id} name="target" defaultValue={filters.target} />}</Field>
        <Field label="From">{(id) => <input id={id} name="from" type="datetime-local" defaultValue={filters.from} />}</Field>
        <Field label="To">{(id) => <input id={id} name="to" type="datetime-local" defaultValue={filters.to} />}</Field>
        <button type="submit">Apply</button>
      </form>
      <ErrorNote error={list.error} />
      <PagedTable
        what="scans"
        page={list.data}
        loading={list.loading}
        columns={["Target", "Type", "Status", "Progress", "Findings", "Created"]}
        firstRun={Object.values(filters).every((v) => !v) && <FirstScan />}
        onPage={(p) => go({ page: p })}
        row={(s) => (
          <tr key={s.id}>
            <td>
              <a href={`#/scans/${encodeURIComponent(s.id)}`}>{s.target}</a>
            </td>
            <td>{words("scanType", s.scan_type)}</td>
            <td>
              <Badge kind="scanStatus" value={s.status} />
            </td>
            <td>{s.progress}%</td>
            <td>
              {s.vulnerabilities_found}
              {s.critical_count > 0 && <span className="badge sev-critical">{s.critical_count} critical</span>}
            </td>
            <td>{when(s.created_at)}</td>
          </tr>
        )}
      />
    </section>
  );
}

/** What an organization without any scan sees on the Scans page and the dashboard. */
export function FirstScan() {
  return (
    <>
      <h2>Start your first scan</h2>
      <p>
        Scan a domain, an IP address or a range you are allowed to test. A quick scan of one host takes seconds to minutes; its findings, the dashboard and your
        compliance scores fill in as it runs.
      </p>
      <a className="button primary" href="#/scans/new">
        Start your first scan
      </a>
    </>
  );
}

const SCAN_FIELDS = ["target", "scan_type", "frameworks", "ports", "authorized"] as const;

/** The form sends what the user typed; the API validates, and its errors land on the right field. */
export function NewScan() {
  const {
    errors,
    busy,
    onSubmit: submit,
  } = useApiForm(SCAN_FIELDS, async (f) => {
    const frameworks = f.getAll("frameworks").map(String);
    const ports = text(f, "ports");
    const body = {
      target: text(f, "target"),
      scan_type: text(f, "scan_type"),
      ...(frameworks.length ? { frameworks } : {}),
      ...(ports ? { ports } : {}),
      authorized: f.get("authorized") === "on",
    };
    const created = await api<{ id: string }>("/api/v1/scans", { method: "POST", body });
    navigate(`/scans/${created.id}`);
  });

  return (
    <section aria-labelledby="new-scan-title">
      <h1 id="new-scan-title">New scan</h1>
      <form className="card form" onSubmit={submit} noValidate>
        <Field label="Target" error={errors.target} hint="A domain, an IP address or a CIDR range you are allowed to scan.">
          {(id, d) => <input id={id} name="target" aria-invalid={!!errors.target} aria-describedby={d} placeholder="app.example.com" />}
        </Field>
        <Choice label="Scan type" name="scan_type" options={optionsOf("scanType", SCAN_TYPES)} defaultValue="quick" error={errors.scan_type} />
        <Checks legend="Compliance frameworks" name="frameworks" options={FRAMEWORKS} label={frameworkName} error={errors.frameworks} />
        <Field label="Ports" error={errors.ports} hint='Ports and ranges, e.g. "22,80,443,8000-8100"; empty for the common ports.'>
          {(id, d) => <input id={id} name="ports" aria-invalid={!!errors.ports} aria-describedby={d} />}
        </Field>
        <div className={`field attest${errors.authorized ? " invalid" : ""}`}>
          <label>
            <input type="checkbox" name="authorized" aria-invalid={!!errors.authorized} aria-describedby={errors.authorized ? "auth-error" : undefined} /> I
            confirm that I am authorized to scan this target.
          </label>
          {errors.authorized && (
            <span className="field-error" id="auth-error" role="alert">
              {errors.authorized}
            </span>
          )}
        </div>
        <Submit label="Start scan" error={errors[""]} busy={busy}>
          <a href="#/scans">Cancel</a>
        </Submit>
      </form>
    </section>
  );
}

/** Polling only when the event stream is not available (an older gateway): every 5 s. */
const FALLBACK_POLL_MS = 5000;
const LIVE = new Set(["pending", "running"]);

/**
 * Follows a pending or running scan through GET /api/v1/scans/{id}/events: the server sends the
 * scan each time it changes (every phase and progress step), one request for the whole scan
 * against the hourly limit. A stream that closes early (the server's 10-minute cap, a restart) is
 * opened again after 2 s; a gateway without the route gets slow polling instead.
 */
function useScanEvents(id: string, live: boolean, setData: (s: ScanDetail) => void, reload: () => Promise<void>) {
  useEffect(() => {
    if (!live) return;
    const stop = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let ended = false;
    const open = () =>
      void stream(
        `/api/v1/scans/${encodeURIComponent(id)}/events`,
        (e) => {
          if (e.event === "scan") setData(JSON.parse(e.data) as ScanDetail);
          if (e.event === "end") ended = true;
        },
        stop.signal,
      ).then(
        () => {
          if (!ended && !stop.signal.aborted) timer = setTimeout(open, 2000);
        },
        (err: unknown) => {
          if (stop.signal.aborted) return;
          const missing = err instanceof ApiError && (err.status === 404 || err.status === 405);
          if (missing) void reload();
          timer = setTimeout(open, missing ? FALLBACK_POLL_MS : 2000);
        },
      );
    open();
    return () => {
      stop.abort();
      clearTimeout(timer);
    };
  }, [id, live, setData, reload]);
}

/** Follows the scan while it is pending or running, so the bar and the phase list move with each phase. */
export function ScanPage({ id }: { id: string }) {
  const scan = useLoad(() => api<ScanDetail>(`/api/v1/scans/${encodeURIComponent(id)}`), [id]);
  const [cancelError, setCancelError] = useState<string>();
  const [tab, setTab] = useState<"overview" | "compare">("overview");
  const s = scan.data;
  const live = s ? LIVE.has(s.status) : false;
  useScanEvents(id, live, scan.setData, scan.reload);

  async function cancel() {
    setCancelError(undefined);
    try {
      await api(`/api/v1/scans/${encodeURIComponent(id)}`, { method: "DELETE" });
      await scan.reload();
    } catch (err) {
      setCancelError((err as Error).message);
    }
  }

  if (!s) return scan.error ? <ErrorNote error={scan.error} /> : <Loading what="scan" />;
  const phases = [...s.phases_completed.map((p) => [p, "done"] as const), ...s.phases_remaining.map((p) => [p, p === s.phase ? "current" : "todo"] as const)];
  return (
    <section aria-labelledby="scan-title">
      <p>
        <a href="#/scans">← Scans</a>
      </p>
      <div className="heading">
        <h1 id="scan-title">
          {s.target} <Badge kind="scanStatus" value={s.status} />
        </h1>
        {live && (
          <button type="button" className="danger" onClick={() => void cancel()}>
            Cancel scan
          </button>
        )}
      </div>
      <ErrorNote error={cancelError} />
      {s.error && <p className="notice">{s.error}</p>}
      {!live && (
        <div className="tabs" role="tablist" aria-label="Scan views">
          {(
            [
              ["overview", "Overview"],
              ["compare", "Compared with previous scan"],
            ] as const
          ).map(([key, label]) => (
            <a
              key={key}
              href={`#/scans/${encodeURIComponent(s.id)}`}
              role="tab"
              aria-selected={tab === key}
              aria-current={tab === key ? "page" : undefined}
              onClick={(e) => {
                e.preventDefault();
                setTab(key);
              }}
            >
              {label}
            </a>
          ))}
        </div>
      )}
      {!live && tab === "compare" ? (
        <div className="card" role="tabpanel" aria-label="Compared with previous scan">
          <ScanComparison id={s.id} />
        </div>
      ) : (
        <ScanOverview s={s} phases={phases} />
      )}
    </section>
  );
}

function ScanOverview({ s, phases }: { s: ScanDetail; phases: (readonly [string, "done" | "current" | "todo"])[] }) {
  return (
    <>
      <div className="card">
        <div className="progress" role="progressbar" aria-label="Scan progress" aria-valuenow={s.progress} aria-valuemin={0} aria-valuemax={100}>
          <span style={{ width: `${s.progress}%` }} />
        </div>
        <p aria-live="polite">
          {s.progress}% · <strong>{s.phase ? words("phase", s.phase) : "Waiting to start"}</strong>
          {s.current_tool && <> · running {s.current_tool}</>}
        </p>
        <ol className="phases" aria-label="Phases">
          {phases.map(([p, state]) => (
            <li key={p} className={state}>
              <span className="sr-only">{state === "done" ? "done: " : state === "current" ? "running: " : "to do: "}</span>
              {words("phase", p)}
            </li>
          ))}
        </ol>
        <dl className="facts">
          <dt>Type</dt>
          <dd>{words("scanType", s.scan_type)}</dd>
          <dt>Created</dt>
          <dd>{when(s.created_at)}</dd>
          <dt>Started</dt>
          <dd>{when(s.started_at)}</dd>
          <dt>Completed</dt>
          <dd>{when(s.completed_at)}</dd>
          {s.frameworks && s.frameworks.length > 0 && (
            <>
              <dt>Frameworks</dt>
              <dd>{s.frameworks.map(frameworkName).join(", ")}</dd>
            </>
          )}
          {s.ports && (
            <>
              <dt>Ports</dt>
              <dd>{s.ports}</dd>
            </>
          )}
        </dl>
      </div>
      <p>
        <a href={href("/findings", { scan_id: s.id })}>{scanSummary(s)}</a>
      </p>
    </>
  );
}
