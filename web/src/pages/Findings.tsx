import { type FormEvent, type ReactNode, useState } from "react";
import { api, download } from "../api/client.js";
import { CONFIDENCES, FINDING_STATUSES, type Finding, type Page, SEVERITIES } from "../api/types.js";
import { Badge, Choice, ErrorNote, Field, Loading, Pager, Table, useLoad, when } from "../components/ui.js";
import { formValues } from "../components/forms.js";
import { href, navigate, pageOf, type Route } from "../router.js";
import { count, optionsOf, words } from "../words.js";
import { AcceptanceFields, acceptanceBody, SLA_STATES, SlaBadge, slaWords } from "./sla.js";

/** The filter form's fields (the sort is set by the column headers). */
const FILTERS = ["search", "severity", "status", "confidence", "sla_state", "scan_id", "target", "tool", "cve"] as const;
type Sort = "severity" | "cvss_score" | "created_at" | "due_date";
/** Most severe first unless the URL says otherwise (ties newest first, the API's rule). */
const DEFAULT_SORT: Sort = "severity";
const SORTS: readonly Sort[] = ["severity", "cvss_score", "created_at", "due_date"];
/*
 * Items the scanner derives from a scan's findings rather than finds on a component: the
 * remediation plan (one per target) and correlations (the same CVE on several components, an admin
 * panel next to leaked credentials). They are listed apart, not as findings. The API has no filter
 * to leave them out, so the table drops them from its page and says how many it dropped.
 */
const ANALYSIS_TOOLS = ["remediation-planner", "correlator"] as const;
const isAnalysis = (f: Finding) => (ANALYSIS_TOOLS as readonly string[]).includes(f.tool);

interface BulkResult {
  updated: number;
  failed: { finding_id: string; error_code: string; detail: string }[];
}

export function FindingList({ route }: { route: Route }) {
  const q = route.query;
  const filters = Object.fromEntries(FILTERS.map((k) => [k, q.get(k) ?? ""])) as Record<(typeof FILTERS)[number], string>;
  const sort: Sort = SORTS.find((s) => s === q.get("sort")) ?? DEFAULT_SORT;
  const order = q.get("order") === "asc" ? "asc" : "desc";
  const grouped = q.get("group") === "weakness";
  const page = pageOf(q);
  const list = useLoad(() => api<Page<Finding>>("/api/v1/findings", { query: { ...filters, sort, order, page, per_page: 25 } }), [q.toString()]);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [bulk, setBulk] = useState<BulkResult>();
  const [bulkStatus, setBulkStatus] = useState("in_progress");
  const [error, setError] = useState<string>();
  const kept = { ...filters, sort: q.get("sort") ?? "", order: q.get("order") ?? "", group: q.get("group") ?? "" };
  const go = (over: Record<string, string | number>) => navigate("/findings", { ...kept, page, ...over });
  const anyFilter = FILTERS.some((k) => filters[k]);
  // Analysis items are shown apart unless the reader asked for them by tool.
  const showAnalysisApart = !(ANALYSIS_TOOLS as readonly string[]).includes(filters.tool);

  const all = list.data?.items ?? [];
  const items = showAnalysisApart ? all.filter((f) => !isAnalysis(f)) : all;
  const dropped = all.length - items.length;
  const allOnPage = items.length > 0 && items.every((f) => selected.has(f.id));
  const toggle = (id: string) =>
    setSelected((s) => {
      const n = new Set(s);
      if (n.has(id)) n.delete(id);
      else n.add(id);
      return n;
    });

  async function applyBulk(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const notes = String(f.get("notes") ?? "").trim();
    setError(undefined);
    try {
      const res = await api<BulkResult>("/api/v1/findings/bulk", {
        method: "POST",
        body: {
          finding_ids: [...selected],
          update: {
            status: String(f.get("status")),
            ...(notes ? { notes } : {}),
            // A move to accepted carries an expiry and a justification, for every finding (the API checks them).
            ...(f.get("status") === "accepted" ? { acceptance: acceptanceBody(f) } : {}),
          },
        },
      });
      setBulk(res);
      setSelected(new Set());
      await list.reload();
    } catch (err) {
      setError((err as Error).message);
    }
  }

  async function exportAs(format: "csv" | "json" | "pdf") {
    setError(undefined);
    try {
      await download("/api/v1/findings/export", { ...filters, format }, `findings.${format}`);
    } catch (err) {
      setError((err as Error).message);
    }
  }

  return (
    <section aria-labelledby="findings-title">
      <div className="heading">
        <h1 id="findings-title">Findings</h1>
        <div className="actions">
          {(["csv", "json", "pdf"] as const).map((fmt) => (
            <button key={fmt} type="button" onClick={() => void exportAs(fmt)}>
              Export {fmt.toUpperCase()}
            </button>
          ))}
        </div>
      </div>
      {/* Keyed by the URL's filters, so the form always shows what the list is filtered by. */}
      <form
        key={FILTERS.map((k) => filters[k]).join("|")}
        className="filters"
        aria-label="Filter findings"
        onSubmit={(e) => go({ ...formValues(e, FILTERS), page: 1 })}
      >
        <Field label="Search" hint="Title, component, CVE or template: every word must appear (at least 3 letters).">
          {(id, d) => <input id={id} name="search" type="search" defaultValue={filters.search} placeholder="redis 6379" aria-describedby={d} />}
        </Field>
        <Choice label="Severity" name="severity" options={optionsOf("severity", SEVERITIES)} defaultValue={filters.severity} any="Any" />
        <Choice label="Status" name="status" options={optionsOf("findingStatus", FINDING_STATUSES)} defaultValue={filters.status} any="Any" />
        <Choice label="Confidence" name="confidence" options={optionsOf("confidence", CONFIDENCES)} defaultValue={filters.confidence} any="Any" />
        <Choice label="SLA" name="sla_state" options={SLA_STATES.map((s) => [s, slaWords(s)] as const)} defaultValue={filters.sla_state} any="Any" />
        <Field label="Target">{(id) => <input id={id} name="target" defaultValue={filters.target} />}</Field>
        <Field label="Tool">{(id) => <input id={id} name="tool" defaultValue={filters.tool} />}</Field>
        <Field label="CVE">{(id) => <input id={id} name="cve" defaultValue={filters.cve} placeholder="CVE-2021-44228" />}</Field>
        <Field label="Scan">{(id) => <input id={id} name="scan_id" defaultValue={filters.scan_id} placeholder="scan_…" />}</Field>
        <button type="submit">Apply</button>
      </form>
      <label className="toggle">
        <input type="checkbox" checked={grouped} onChange={() => go({ group: grouped ? "" : "weakness", page: 1 })} /> Group the same weakness across components
      </label>
      <ErrorNote error={list.error ?? error} />
      {selected.size > 0 && (
        <form className="bulk card" aria-label="Bulk update" onSubmit={applyBulk}>
          <strong>{selected.size} selected</strong>
          <div onChange={(e) => (e.target as HTMLElement).getAttribute("name") === "status" && setBulkStatus((e.target as unknown as HTMLSelectElement).value)}>
            <Choice label="New status" name="status" options={optionsOf("findingStatus", FINDING_STATUSES)} defaultValue="in_progress" />
          </div>
          {bulkStatus === "accepted" && <AcceptanceFields errors={{}} current={null} />}
          <Field label="Notes">{(id) => <input id={id} name="notes" />}</Field>
          <button className="primary" type="submit">
            Update selected
          </button>
        </form>
      )}
      {bulk && (
        <div className="card" role="status" aria-label="Bulk update result">
          <p>
            {bulk.updated} updated, {bulk.failed.length} failed.
          </p>
          {bulk.failed.length > 0 && (
            <ul>
              {bulk.failed.map((f) => (
                <li key={f.finding_id}>
                  {f.finding_id}: {f.detail}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      {showAnalysisApart && <Analysis scanId={filters.scan_id} />}
      {!list.data ? (
        list.loading ? (
          <Loading what="findings" />
        ) : null
      ) : list.data.total === 0 && !anyFilter ? (
        <div className="card first-run">
          <p>No findings yet. Findings appear here as your scans find them.</p>
          <a className="button primary" href="#/scans/new">
            Start a scan
          </a>
        </div>
      ) : (
        <>
          <Table
            caption="findings"
            hideCaption
            className="findings-table"
            columns={[
              <input
                key="all"
                type="checkbox"
                aria-label="Select all on this page"
                checked={allOnPage}
                onChange={() => setSelected(allOnPage ? new Set() : new Set(items.map((f) => f.id)))}
              />,
              "Title",
              "Component",
              <SortHeader key="severity" label="Severity" column="severity" sort={sort} order={order} go={go} />,
              <SortHeader key="cvss" label="CVSS" column="cvss_score" sort={sort} order={order} go={go} />,
              "Confidence",
              "Status",
              <SortHeader key="due" label="Due" column="due_date" sort={sort} order={order} go={go} />,
              "Target",
              "Tool",
              <SortHeader key="detected" label="Detected" column="created_at" sort={sort} order={order} go={go} />,
            ]}
            sorted={{ column: { severity: 3, cvss_score: 4, due_date: 7, created_at: 10 }[sort], order: order === "desc" ? "descending" : "ascending" }}
            empty={items.length === 0 && (dropped ? "Only analysis items on this page." : "No findings match.")}
          >
            {grouped
              ? groupsOf(items).map((g) =>
                  g.length === 1 ? (
                    <FindingRow key={g[0]!.id} f={g[0]!} selected={selected} toggle={toggle} />
                  ) : (
                    <GroupRow key={g[0]!.id} group={g} selected={selected} setSelected={setSelected} />
                  ),
                )
              : items.map((f) => <FindingRow key={f.id} f={f} selected={selected} toggle={toggle} />)}
          </Table>
          {grouped && <p className="muted small">Grouped on this page: the same weakness (scanner template) found on several components is one row.</p>}
          {dropped > 0 && (
            <p className="muted small">
              {count(dropped, "analysis item")} of this page (remediation plan, correlations) {dropped === 1 ? "is" : "are"} listed under Scan analysis, not as{" "}
              {dropped === 1 ? "a finding" : "findings"}.
            </p>
          )}
          <Pager page={list.data.page} pages={list.data.pages} total={list.data.total} onPage={(p) => go({ page: p })} />
        </>
      )}
    </section>
  );
}

/** A column header that sorts the list through the URL: a first click sorts that column descending, the next flips the order. */
function SortHeader({
  label,
  column,
  sort,
  order,
  go,
}: {
  label: string;
  column: Sort;
  sort: Sort;
  order: "asc" | "desc";
  go: (over: Record<string, string | number>) => void;
}) {
  const active = sort === column;
  const next = active && order === "desc" ? "asc" : "desc";
  return (
    // Named by its text alone ("Severity"); the header's aria-sort says how the list is sorted.
    <button
      type="button"
      className="sort"
      title={`Sort ${next === "desc" ? "highest" : "lowest"} first`}
      onClick={() => go({ sort: column, order: next, page: 1 })}
    >
      {label}{" "}
      <span aria-hidden="true" className={active ? "" : "muted"}>
        {active ? (order === "desc" ? "▼" : "▲") : "↕"}
      </span>
    </button>
  );
}

function FindingRow({ f, selected, toggle }: { f: Finding; selected: Set<string>; toggle: (id: string) => void }) {
  return (
    <tr>
      <td>
        <input
          type="checkbox"
          aria-label={`Select ${f.title} on ${f.affected_component || f.target}`}
          checked={selected.has(f.id)}
          onChange={() => toggle(f.id)}
        />
      </td>
      <td className="title">
        <a href={`#/findings/${encodeURIComponent(f.id)}`}>{f.title}</a>
        {f.cve_ids.length > 0 && <div className="muted small">{f.cve_ids.join(", ")}</div>}
      </td>
      <td className="wrap small">{f.affected_component || "—"}</td>
      <td>
        <Badge kind="severity" value={f.severity} />
      </td>
      <td>{f.cvss_score.toFixed(1)}</td>
      <td>{words("confidence", f.confidence)}</td>
      <td>
        <Badge kind="findingStatus" value={f.status} />
      </td>
      <td>
        <SlaBadge state={f.sla_state} due={f.due_date} />
      </td>
      <td className="wrap target">{f.target}</td>
      <td className="nowrap">{f.tool}</td>
      <td>{when(f.detected_at)}</td>
    </tr>
  );
}

/** A group's most urgent deadline and its SLA state. */
function soonestDue(group: Finding[]) {
  const f = group.filter((x) => x.due_date).sort((a, b) => a.due_date!.localeCompare(b.due_date!))[0];
  return { state: f?.sla_state, due: f?.due_date };
}

/** The same weakness on several components: one row, its components listed with links to each finding. */
function GroupRow({ group, selected, setSelected }: { group: Finding[]; selected: Set<string>; setSelected: (s: Set<string>) => void }) {
  const first = group[0]!;
  const all = group.every((f) => selected.has(f.id));
  const statuses = [...new Set(group.map((f) => f.status))];
  const targets = [...new Set(group.map((f) => f.target))];
  return (
    <tr className="group">
      <td>
        <input
          type="checkbox"
          aria-label={`Select ${first.title} on all ${group.length} components`}
          checked={all}
          onChange={() => {
            const n = new Set(selected);
            for (const f of group)
              if (all) n.delete(f.id);
              else n.add(f.id);
            setSelected(n);
          }}
        />
      </td>
      <td className="title">
        {first.title} <span className="muted small">· {count(group.length, "component")}</span>
        {first.cve_ids.length > 0 && <div className="muted small">{first.cve_ids.join(", ")}</div>}
      </td>
      <td className="wrap small">
        <ul className="components" aria-label={`Components with ${first.title}`}>
          {group.map((f) => (
            <li key={f.id}>
              <a href={`#/findings/${encodeURIComponent(f.id)}`}>{f.affected_component || f.target}</a>
            </li>
          ))}
        </ul>
      </td>
      <td>
        <Badge kind="severity" value={first.severity} />
      </td>
      <td>{Math.max(...group.map((f) => f.cvss_score)).toFixed(1)}</td>
      <td>{words("confidence", first.confidence)}</td>
      <td>
        {statuses.map((s) => (
          <Badge key={s} kind="findingStatus" value={s} />
        ))}
      </td>
      <td>
        <SlaBadge {...soonestDue(group)} />
      </td>
      <td className="wrap target">{targets.join(", ")}</td>
      <td className="nowrap">{first.tool}</td>
      <td>{when(group.map((f) => f.detected_at).sort()[group.length - 1])}</td>
    </tr>
  );
}

/** The page's findings grouped by weakness (scanner template and title, severity kept apart), in the page's order. */
export function groupsOf(items: Finding[]): Finding[][] {
  const groups = new Map<string, Finding[]>();
  for (const f of items) {
    const key = `${f.template_id}\u0000${f.title}\u0000${f.severity}`;
    groups.set(key, [...(groups.get(key) ?? []), f]);
  }
  return [...groups.values()];
}

/**
 * The remediation plan and correlations, apart from the findings: what the scanner concluded from a
 * scan's findings. No severity or CVSS is shown for them: they are notes about findings (a
 * correlation's CVE keeps its own severity on the findings it groups).
 */
function Analysis({ scanId }: { scanId: string }) {
  const loaded = useLoad(
    () =>
      Promise.all(
        ANALYSIS_TOOLS.map((tool) =>
          api<Page<Finding>>("/api/v1/findings", { query: { tool, scan_id: scanId, sort: "created_at", order: "desc", per_page: 10 } }),
        ),
      ),
    [scanId],
  );
  const [plans, correlations] = loaded.data ?? [];
  if (!plans || !correlations || plans.total + correlations.total === 0) return null;
  const item = (f: Finding, what: ReactNode) => (
    <li key={f.id}>
      <a href={`#/findings/${encodeURIComponent(f.id)}`}>{f.title}</a>
      <div className="muted small">
        {what} · {f.target} · {when(f.detected_at)}
      </div>
    </li>
  );
  return (
    <section className="card analysis" aria-labelledby="analysis-title">
      <h2 id="analysis-title">Scan analysis</h2>
      <p className="muted small">Conclusions drawn from your findings, not findings themselves.</p>
      <ul aria-label="Scan analysis">
        {plans.items.map((f) => item(f, "Remediation plan"))}
        {correlations.items.map((f) => item(f, "Correlation"))}
      </ul>
      {(plans.total > plans.items.length || correlations.total > correlations.items.length) && (
        <p className="small">
          <a href={href("/findings", { tool: "remediation-planner" })}>All remediation plans</a> ·{" "}
          <a href={href("/findings", { tool: "correlator" })}>All correlations</a>
        </p>
      )}
    </section>
  );
}
