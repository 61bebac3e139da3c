// Compliance > Controls on the public GRC API (gateway/src/routes/grc): framework scores, the
// controls list with filters and pages, and a control's page (status/owner/notes, the findings
// that make it fail, its evidence with upload and download). The list's filters and page live in
// the URL only: the form shows what the URL says, and every change goes through the URL.
import { useState } from "react";
import { evidenceBody } from "../api/bodies.js";
import { api, download } from "../api/client.js";
import { severeOpenFindings } from "../api/failing.js";
import {
  CONTROL_STATUSES,
  type Control,
  type ControlDetail,
  type Evidence,
  type Finding,
  FRAMEWORKS,
  type FrameworkScore,
  type Page,
  SETTABLE_CONTROL_STATUSES,
} from "../api/types.js";
import { formValues, text, useApiForm } from "../components/forms.js";
import { Badge, Choice, ErrorNote, Field, Hidden, Loading, PagedTable, Submit, Table, Unavailable, useLoad, when } from "../components/ui.js";
import { href, navigate, pageOf, type Route } from "../router.js";
import { choices, controlStatusWords, day, frameworkName, words } from "../words.js";

/** Where the controls live (Compliance in the top navigation; #/settings/controls links are sent here). */
export const BASE = "/compliance/controls";
const FILTERS = ["framework", "status"] as const;
const controlPath = (id: string) => `/api/v1/controls/${encodeURIComponent(id)}`;
const refsOf = (c: Control) =>
  c.framework_refs?.length
    ? c.framework_refs.map((r) => `${frameworkName(r.framework ?? "")} ${r.control_ref ?? ""}`).join(", ")
    : c.frameworks.map(frameworkName).join(", ");

export function Controls({ route }: { route: Route }) {
  const id = route.path[2];
  return id ? <ControlPage id={id} /> : <ControlList route={route} />;
}

function ControlList({ route }: { route: Route }) {
  const q = route.query;
  const filters = { framework: q.get("framework") ?? "", status: q.get("status") ?? "" };
  const page = pageOf(q);
  const controls = useLoad(
    () => api<Page<Control>>("/api/v1/controls", { query: { ...filters, page, per_page: 25 } }),
    [filters.framework, filters.status, page],
  );
  const go = (over: Record<string, string | number>) => navigate(BASE, { ...filters, page, ...over });

  if (controls.error && !controls.data) return <Unavailable feature="controls" error={controls.error} />;
  return (
    <>
      <Scores linkTo={(id) => href(BASE, { framework: id })} />
      {/* Keyed by the URL's filters: a link or Back/Forward that changes them shows them in the selects. */}
      <form
        key={`${filters.framework}|${filters.status}`}
        className="filters"
        aria-label="Filter controls"
        onSubmit={(e) => go({ ...formValues(e, FILTERS), page: 1 })}
      >
        <Choice label="Framework" name="framework" options={choices(FRAMEWORKS, frameworkName)} defaultValue={filters.framework} any="Any" />
        <Choice label="Status" name="status" options={choices(CONTROL_STATUSES, controlStatusWords)} defaultValue={filters.status} any="Any" />
        <button type="submit">Apply</button>
      </form>
      <PagedTable
        what="controls"
        page={controls.data}
        loading={controls.loading}
        error={controls.error}
        columns={["Control", "Status", "Frameworks", "Owner", "Open findings", "Evidence", "Last tested"]}
        onPage={(p) => go({ page: p })}
        row={(c) => (
          <tr key={c.id}>
            <td>
              <a href={href(`${BASE}/${encodeURIComponent(c.id)}`)}>{c.name}</a>
              <div className="muted small mono">{c.id}</div>
            </td>
            <td>
              <Badge kind="controlStatus" value={c.status} />
            </td>
            <td className="small">{refsOf(c)}</td>
            <td>{c.owner || "—"}</td>
            <td>{c.open_finding_count ?? "—"}</td>
            <td>{c.evidence_count}</td>
            <td>{when(c.last_tested_at)}</td>
          </tr>
        )}
      />
    </>
  );
}

/** A framework's score (0–100) as a bar and a rounded percentage. */
export function ScoreBar({ score, big }: { score: number; big?: boolean }) {
  return (
    <div className={big ? "score big" : "score"}>
      <span className="bar-track" aria-hidden="true">
        <span className="bar-fill" style={{ width: `${Math.min(100, Math.max(0, score))}%` }} />
      </span>
      <span className="bar-value">{Math.round(score)}%</span>
    </div>
  );
}

/** GET /api/v1/frameworks: one row per framework, the score drawn as a bar; the name links where `linkTo` says. */
export function Scores({ linkTo }: { linkTo: (framework: string) => string }) {
  const scores = useLoad(() => api<{ items: FrameworkScore[] }>("/api/v1/frameworks"), []);
  if (scores.error) return <ErrorNote error={scores.error} />;
  if (!scores.data) return <Loading what="framework scores" />;
  return (
    <Table caption="Framework scores" columns={["Framework", "Score", "Implemented", "Failing", "In progress", "Not started", "Not applicable"]}>
      {scores.data.items.map((f) => (
        <tr key={f.id}>
          <td>
            <a href={linkTo(f.id)} title={f.name}>
              {frameworkName(f.id)}
            </a>
          </td>
          <td>
            <ScoreBar score={f.score} />
          </td>
          <td>
            {f.controls_implemented ?? 0} / {f.controls_total}
          </td>
          <td>{f.controls_failing ?? 0}</td>
          <td>{f.controls_in_progress ?? 0}</td>
          <td>{f.controls_not_started ?? 0}</td>
          <td>{f.controls_not_applicable ?? 0}</td>
        </tr>
      ))}
    </Table>
  );
}

const CONTROL_FIELDS = ["status", "owner", "notes"] as const;
const EVIDENCE_FIELDS = ["file", "title", "description", "expires_at"] as const;

function ControlPage({ id }: { id: string }) {
  const control = useLoad(() => api<ControlDetail>(controlPath(id)), [id]);
  const [saved, setSaved] = useState(false);
  const { errors, busy, onSubmit } = useApiForm(CONTROL_FIELDS, async (f) => {
    setSaved(false);
    const owner = text(f, "owner");
    const updated = await api<ControlDetail>(controlPath(id), {
      method: "PATCH",
      body: { status: text(f, "status"), owner: owner || null, notes: String(f.get("notes") ?? "") },
    });
    control.setData(updated);
    setSaved(true);
  });

  const c = control.data;
  if (!c)
    return control.error ? (
      <>
        <p>
          <a href={href(BASE)}>← All controls</a>
        </p>
        <ErrorNote error={control.error} />
      </>
    ) : (
      <Loading what="control" />
    );
  return (
    <section aria-labelledby="control-title">
      <p>
        <a href={href(BASE)}>← All controls</a>
      </p>
      <h2 id="control-title">
        {c.name} <Badge kind="controlStatus" value={c.status} />
      </h2>
      <p className="muted small">
        <span className="mono">{c.id}</span> · {refsOf(c)} · last tested {when(c.last_tested_at)}
      </p>
      <Requirement text={c.requirement} />
      <div className="grid2 detail">
        <div>
          <form className="card" aria-label="Control status" onSubmit={onSubmit} noValidate>
            <h3>Status, owner and notes</h3>
            {c.status === "failing" && (
              <p className="notice small">Failing while open critical or high findings map to it; the status set here shows again once they are closed.</p>
            )}
            <Choice
              label="Status"
              name="status"
              options={choices(SETTABLE_CONTROL_STATUSES, controlStatusWords)}
              defaultValue={c.set_status ?? "not_started"}
              error={errors.status}
            />
            <Field label="Owner" error={errors.owner}>
              {(fid, d) => <input id={fid} name="owner" defaultValue={c.owner ?? ""} aria-invalid={!!errors.owner} aria-describedby={d} />}
            </Field>
            <Field label="Notes" error={errors.notes}>
              {(fid, d) => <textarea id={fid} name="notes" rows={4} defaultValue={c.notes ?? ""} aria-invalid={!!errors.notes} aria-describedby={d} />}
            </Field>
            <Submit label="Save" error={errors[""]} busy={busy}>
              {saved && (
                <span className="ok" role="status">
                  Saved.
                </span>
              )}
            </Submit>
          </form>
          <EvidenceList control={c} onUploaded={control.reload} />
        </div>
        <FailingFindings ids={c.finding_ids ?? []} />
      </div>
    </section>
  );
}

/**
 * The open critical/high findings that make the control fail, by title and severity, most severe
 * first: picked from the organization's open critical/high findings (four list requests, see
 * api/failing.ts), not one request per id.
 */
function FailingFindings({ ids }: { ids: string[] }) {
  const loaded = useLoad(() => (ids.length ? severeOpenFindings() : Promise.resolve(undefined)), [ids.join(",")]);
  const wanted = new Set(ids);
  const rows = loaded.data?.items.filter((f) => wanted.has(f.id)) ?? [];
  return (
    <div className="card">
      <h3>Failing findings</h3>
      {ids.length === 0 ? (
        <p className="muted">No open critical or high finding maps to this control.</p>
      ) : !loaded.data ? (
        loaded.error ? (
          <ErrorNote error={loaded.error} />
        ) : (
          <Loading what="failing findings" />
        )
      ) : (
        <FindingLinks label="Failing findings" findings={rows} />
      )}
      {loaded.data && ids.length > rows.length && <p className="small">And {ids.length - rows.length} more open critical or high findings not listed here.</p>}
      <p>
        <a href={href("/findings", { status: "open", severity: "critical" })}>All open critical findings</a> ·{" "}
        <a href={href("/findings", { status: "open", severity: "high" })}>All open high findings</a>
      </p>
    </div>
  );
}

/** What a control asks for, in our words; says so when it has not been written yet. */
export function Requirement({ text }: { text: string | undefined }) {
  return text ? (
    <p className="requirement">{text}</p>
  ) : (
    <p className="requirement muted">No requirement text written for this control yet; see the framework's own text.</p>
  );
}

/** Findings as a list of severity badges and title links, with target, component and CVSS under each. */
export function FindingLinks({ label, findings }: { label: string; findings: Finding[] }) {
  return (
    <ul className="failing" aria-label={label}>
      {findings.map((f) => (
        <li key={f.id}>
          <Badge kind="severity" value={f.severity} /> <a href={`#/findings/${encodeURIComponent(f.id)}`}>{f.title}</a>
          <div className="muted small">
            {f.target}
            {f.affected_component && f.affected_component !== f.target && ` · ${f.affected_component}`} · CVSS {f.cvss_score.toFixed(1)}
          </div>
        </li>
      ))}
    </ul>
  );
}

/** The control's evidence, newest first, with the upload form (multipart) under it. */
function EvidenceList({ control, onUploaded }: { control: ControlDetail; onUploaded: () => Promise<void> }) {
  const [page, setPage] = useState(1);
  const [note, setNote] = useState<string>();
  const list = useLoad(() => api<Page<Evidence>>("/api/v1/evidence", { query: { control_id: control.id, page, per_page: 10 } }), [control.id, page]);
  const upload = useApiForm(EVIDENCE_FIELDS, async (f, form) => {
    const e = await api<Evidence>(`${controlPath(control.id)}/evidence`, { method: "POST", body: evidenceBody(f) });
    setNote(`Uploaded ${e.name}: ${words("evidenceStatus", e.status).toLowerCase()}${e.threat ? ` (${e.threat})` : ""}.`);
    form.reset();
    setPage(1);
    await Promise.all([list.reload(), onUploaded()]);
  });

  async function fetchFile(e: Evidence) {
    setNote(undefined);
    try {
      await download(`/api/v1/evidence/${encodeURIComponent(e.id)}/download`, {}, e.name);
    } catch (err) {
      setNote((err as Error).message);
    }
  }

  return (
    <div className="card">
      <h3>Evidence</h3>
      <PagedTable
        what="evidence"
        page={list.data}
        loading={list.loading}
        error={list.error}
        columns={["File", "Status", "Size", "Uploaded", <Hidden key="a" text="Actions" />]}
        onPage={setPage}
        row={(e) => (
          <tr key={e.id}>
            <td>
              {e.title || e.name}
              <div className="muted small">
                {e.title ? `${e.name} · ` : ""}
                <span className="mono" title={e.sha256}>
                  sha256 {e.sha256.slice(0, 12)}…
                </span>
              </div>
            </td>
            <td>
              <Badge kind="evidenceStatus" value={e.status} />
              {e.threat && <div className="small">{e.threat}</div>}
            </td>
            <td className="nowrap">{formatBytes(e.size_bytes)}</td>
            <td>
              {when(e.uploaded_at)}
              {e.expires_at && <div className="small">expires {day(e.expires_at)}</div>}
            </td>
            <td>
              {(e.status === "clean" || e.status === "expired") && (
                <button type="button" onClick={() => void fetchFile(e)} aria-label={`Download ${e.name}`}>
                  Download
                </button>
              )}
            </td>
          </tr>
        )}
      />
      {note && <p role="status">{note}</p>}
      <form className="separated" aria-labelledby="upload-title" onSubmit={upload.onSubmit} noValidate>
        <h3 id="upload-title">Upload evidence</h3>
        <Field label="File" error={upload.errors.file} hint="Up to 10 MiB; checked for malware before it can be downloaded.">
          {(fid, d) => <input id={fid} name="file" type="file" aria-invalid={!!upload.errors.file} aria-describedby={d} />}
        </Field>
        <Field label="Title" error={upload.errors.title}>
          {(fid, d) => <input id={fid} name="title" aria-describedby={d} />}
        </Field>
        <Field label="Description" error={upload.errors.description}>
          {(fid, d) => <input id={fid} name="description" aria-describedby={d} />}
        </Field>
        <Field label="Expires" error={upload.errors.expires_at}>
          {(fid, d) => <input id={fid} name="expires_at" type="date" aria-describedby={d} />}
        </Field>
        <Submit label="Upload evidence" error={upload.errors[""]} busy={upload.busy} />
      </form>
    </div>
  );
}

function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}
