import { type FormEvent, useState } from "react";
import { api, download } from "../api/client.js";
import { CONFIDENCES, FINDING_STATUSES, type Finding, type Page, SEVERITIES } from "../api/types.js";
import { Badge, Choice, ErrorNote, Field, PagedTable, useLoad, when } from "../components/ui.js";
import { formValues } from "../components/forms.js";
import { navigate, pageOf, type Route } from "../router.js";
import { optionsOf, words } from "../words.js";

const SORTS = [
  ["created_at", "detected"],
  ["severity", "severity"],
  ["cvss_score", "CVSS score"],
] as const;
const ORDERS = [
  ["desc", "descending"],
  ["asc", "ascending"],
] as const;
const FILTERS = ["severity", "status", "confidence", "scan_id", "target", "tool", "cve", "sort", "order"] as const;

interface BulkResult {
  updated: number;
  failed: { finding_id: string; error_code: string; detail: string }[];
}

export function FindingList({ route }: { route: Route }) {
  const q = route.query;
  const filters = Object.fromEntries(FILTERS.map((k) => [k, q.get(k) ?? ""])) as Record<(typeof FILTERS)[number], string>;
  const page = pageOf(q);
  const list = useLoad(() => api<Page<Finding>>("/api/v1/findings", { query: { ...filters, page, per_page: 25 } }), [q.toString()]);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [bulk, setBulk] = useState<BulkResult>();
  const [error, setError] = useState<string>();
  const go = (over: Record<string, string | number>) => navigate("/findings", { ...filters, page, ...over });

  const items = list.data?.items ?? [];
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
        body: { finding_ids: [...selected], update: { status: String(f.get("status")), ...(notes ? { notes } : {}) } },
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
        <Choice label="Severity" name="severity" options={optionsOf("severity", SEVERITIES)} defaultValue={filters.severity} any="Any" />
        <Choice label="Status" name="status" options={optionsOf("findingStatus", FINDING_STATUSES)} defaultValue={filters.status} any="Any" />
        <Choice label="Confidence" name="confidence" options={optionsOf("confidence", CONFIDENCES)} defaultValue={filters.confidence} any="Any" />
        <Field label="Target">{(id) => <input id={id} name="target" defaultValue={filters.target} />}</Field>
        <Field label="Tool">{(id) => <input id={id} name="tool" defaultValue={filters.tool} />}</Field>
        <Field label="CVE">{(id) => <input id={id} name="cve" defaultValue={filters.cve} placeholder="CVE-2021-44228" />}</Field>
        <Field label="Scan">{(id) => <input id={id} name="scan_id" defaultValue={filters.scan_id} placeholder="scan_…" />}</Field>
        <Choice label="Sort by" name="sort" options={SORTS} defaultValue={filters.sort || "created_at"} />
        <Choice label="Order" name="order" options={ORDERS} defaultValue={filters.order || "desc"} />
        <button type="submit">Apply</button>
      </form>
      <ErrorNote error={list.error ?? error} />
      {selected.size > 0 && (
        <form className="bulk card" aria-label="Bulk update" onSubmit={applyBulk}>
          <strong>{selected.size} selected</strong>
          <Choice label="New status" name="status" options={optionsOf("findingStatus", FINDING_STATUSES)} defaultValue="in_progress" />
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
      <PagedTable
        what="findings"
        page={list.data}
        loading={list.loading}
        columns={[
          <input
            key="all"
            type="checkbox"
            aria-label="Select all on this page"
            checked={allOnPage}
            onChange={() => setSelected(allOnPage ? new Set() : new Set(items.map((f) => f.id)))}
          />,
          "Title",
          "Severity",
          "CVSS",
          "Confidence",
          "Status",
          "Target",
          "Tool",
          "Detected",
        ]}
        onPage={(p) => go({ page: p })}
        row={(f) => (
          <tr key={f.id}>
            <td>
              <input type="checkbox" aria-label={`Select ${f.title}`} checked={selected.has(f.id)} onChange={() => toggle(f.id)} />
            </td>
            <td>
              <a href={`#/findings/${encodeURIComponent(f.id)}`}>{f.title}</a>
              {f.cve_ids.length > 0 && <div className="muted small">{f.cve_ids.join(", ")}</div>}
            </td>
            <td>
              <Badge kind="severity" value={f.severity} />
            </td>
            <td>{f.cvss_score.toFixed(1)}</td>
            <td>{words("confidence", f.confidence)}</td>
            <td>
              <Badge kind="findingStatus" value={f.status} />
            </td>
            <td>{f.target}</td>
            <td>{f.tool}</td>
            <td>{when(f.detected_at)}</td>
          </tr>
        )}
      />
    </section>
  );
}
