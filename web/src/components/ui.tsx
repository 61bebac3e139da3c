import { type ReactNode, useCallback, useEffect, useId, useRef, useState } from "react";
import { ApiError } from "../api/errors.js";
import type { Page } from "../api/types.js";
import { type WordKind, when, words } from "../words.js";

export { when };

/**
 * Loads data from the API and reloads on demand; 404 is reported as such (feature missing).
 * When the inputs change (other filters, another page) the previous data is dropped at once, and
 * an answer that arrives after a newer request was made is ignored: a page never shows the data
 * of filters it no longer shows.
 */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]) {
  const [data, setData] = useState<T | undefined>();
  const [error, setError] = useState<ApiError | Error | undefined>();
  const [loading, setLoading] = useState(true);
  const latest = useRef(0);
  const reload = useCallback(async () => {
    const mine = ++latest.current;
    setLoading(true);
    try {
      const value = await load();
      if (mine !== latest.current) return;
      setData(value);
      setError(undefined);
    } catch (e) {
      if (mine === latest.current) setError(e as Error);
    } finally {
      if (mine === latest.current) setLoading(false);
    }
    // biome-ignore lint/correctness/useExhaustiveDependencies: the caller names the inputs of load
  }, deps);
  useEffect(() => {
    setData(undefined);
    setError(undefined);
    void reload();
  }, [reload]);
  return { data, error, loading, reload, setData };
}

export function ErrorNote({ error }: { error: Error | string | undefined }) {
  if (!error) return null;
  const text = typeof error === "string" ? error : error.message;
  return (
    <p className="error" role="alert">
      {text}
    </p>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p className="muted" aria-live="polite">
      Loading {what}…
    </p>
  );
}

/** A labelled input with its error below it, tied together for screen readers. */
export function Field({
  label,
  error,
  hint,
  children,
}: {
  label: string;
  error?: string | undefined;
  hint?: string;
  children: (id: string, describedBy: string | undefined) => ReactNode;
}) {
  const id = useId();
  const errId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [error ? errId : "", hint ? hintId : ""].filter(Boolean).join(" ") || undefined;
  return (
    <div className={`field${error ? " invalid" : ""}`}>
      <label htmlFor={id}>{label}</label>
      {children(id, describedBy)}
      {hint && (
        <span className="hint" id={hintId}>
          {hint}
        </span>
      )}
      {error && (
        <span className="field-error" id={errId} role="alert">
          {error}
        </span>
      )}
    </div>
  );
}

/** A value as a coloured badge in words; its class keeps the API's value (`sev-critical`, `status-in_progress`). */
export function Badge({ kind, value }: { kind: WordKind; value: string }) {
  return <span className={`badge ${kind === "severity" ? "sev" : "status"}-${value}`}>{words(kind, value)}</span>;
}

export function Pager({ page, pages, total, onPage }: { page: number; pages: number; total: number; onPage: (p: number) => void }) {
  return (
    <nav className="pager" aria-label="Pagination">
      <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span>
        Page {page} of {Math.max(pages, 1)} · {total} total
      </span>
      <button type="button" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}

/** Horizontal bars: accessible as a list of label/value pairs, drawn with CSS widths. */
export function Bars({ title, data, kind, wordsOf }: { title: string; data: Record<string, number>; kind?: "sev" | "status"; wordsOf?: WordKind }) {
  const max = Math.max(1, ...Object.values(data));
  return (
    <figure className={`bars ${kind ?? ""}`}>
      <figcaption>{title}</figcaption>
      <ul>
        {Object.entries(data).map(([k, v]) => (
          <li key={k}>
            <span className="bar-label">{wordsOf ? words(wordsOf, k) : k}</span>
            <span className="bar-track" aria-hidden="true">
              <span className={`bar-fill ${kind ? `${kind}-${k}` : ""}`} style={{ width: `${(v / max) * 100}%` }} />
            </span>
            <span className="bar-value">{v}</span>
          </li>
        ))}
      </ul>
    </figure>
  );
}

/**
 * A page for a feature whose API this gateway does not offer (yet), or the plan does not include.
 * `feature` is written as it reads inside a sentence: "webhooks", "API keys", "controls".
 */
export function Unavailable({ feature, error }: { feature: string; error: Error }) {
  const status = error instanceof ApiError ? error.status : 0;
  const code = error instanceof ApiError ? error.code : "";
  if (status === 404 || status === 501)
    return (
      <div className="notice" role="status">
        <h2>This server does not offer {feature}</h2>
        <p>
          Its API answered that it has no {feature} (HTTP {status}).
        </p>
      </div>
    );
  if (status === 403 && code === "PLAN_UPGRADE_REQUIRED")
    return (
      <div className="notice" role="status">
        <h2>Your plan does not include {feature}</h2>
        <p>{error.message}</p>
      </div>
    );
  return <ErrorNote error={error} />;
}

/** A select of fixed values, optionally with an "Any" choice (filters). */
export function Choice({
  label,
  name,
  options,
  defaultValue,
  any,
  error,
}: {
  label: string;
  name: string;
  options: readonly (string | readonly [value: string, text: string])[];
  defaultValue?: string | undefined;
  any?: string;
  error?: string | undefined;
}) {
  return (
    <Field label={label} error={error}>
      {(id, d) => (
        <select id={id} name={name} defaultValue={defaultValue} aria-describedby={d}>
          {any !== undefined && <option value="">{any}</option>}
          {options.map((o) => {
            const [value, text] = typeof o === "string" ? [o, o] : o;
            return (
              <option key={value} value={value}>
                {text}
              </option>
            );
          })}
        </select>
      )}
    </Field>
  );
}

/** A group of checkboxes sharing one name, with the API's error for that field under it. */
export function Checks({
  legend,
  name,
  options,
  checked,
  error,
  label,
}: {
  legend: string;
  name: string;
  options: readonly string[];
  checked?: (value: string) => boolean;
  error?: string | undefined;
  /** The words shown for a value (the value itself when absent). */
  label?: (value: string) => string;
}) {
  const errId = `${useId()}-error`;
  return (
    <fieldset className={error ? "invalid" : ""} aria-describedby={error ? errId : undefined}>
      <legend>{legend}</legend>
      <div className="checks">
        {options.map((v) => (
          <label key={v}>
            <input type="checkbox" name={name} value={v} defaultChecked={checked?.(v) ?? false} /> {label ? label(v) : v}
          </label>
        ))}
      </div>
      {error && (
        <span className="field-error" id={errId} role="alert">
          {error}
        </span>
      )}
    </fieldset>
  );
}

/** A scrollable table with its caption and column headers; rows are the children. */
export function Table({
  caption,
  hideCaption,
  columns,
  empty,
  sorted,
  className,
  children,
}: {
  caption: string;
  hideCaption?: boolean;
  /** A class for this table's scrolling box, for a page's own column layout. */
  className?: string;
  columns: ReactNode[];
  /** The column the rows are sorted by and how (its header gets aria-sort). */
  sorted?: { column: number; order: "ascending" | "descending" } | undefined;
  /** Shown as the only row when there are no rows. */
  empty?: string | false;
  children: ReactNode;
}) {
  return (
    <div className={className ? `table-wrap ${className}` : "table-wrap"}>
      <table>
        <caption className={hideCaption ? "sr-only" : undefined}>{caption}</caption>
        <thead>
          <tr>
            {columns.map((c, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the columns are fixed for the table's life
              <th scope="col" key={i} aria-sort={sorted?.column === i ? sorted.order : undefined}>
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {children}
          {empty && (
            <tr>
              <td colSpan={columns.length} className="muted">
                {empty}
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

/** Header text only screen readers need (action columns). */
export const Hidden = ({ text }: { text: string }) => <span className="sr-only">{text}</span>;

/** A page of a list endpoint as a table: its error, loading note, rows, "nothing matches" and the pager. */
export function PagedTable<T>({
  what,
  page,
  loading,
  error,
  columns,
  row,
  onPage,
  firstRun,
}: {
  what: string;
  /** Shown instead of the table when nothing exists yet (no filters set, nothing found): what to do first. */
  firstRun?: ReactNode;
  page: Page<T> | undefined;
  loading: boolean;
  error?: Error | undefined;
  columns: ReactNode[];
  row: (item: T) => ReactNode;
  onPage: (p: number) => void;
}) {
  if (!page) return loading ? <Loading what={what} /> : <ErrorNote error={error} />;
  if (firstRun && page.total === 0) return <div className="card first-run">{firstRun}</div>;
  return (
    <>
      <ErrorNote error={error} />
      <Table caption={what} hideCaption columns={columns} empty={page.items.length === 0 && `No ${what} match.`}>
        {page.items.map(row)}
      </Table>
      <Pager page={page.page} pages={page.pages} total={page.total} onPage={onPage} />
    </>
  );
}

/** The form-level error (one the API did not tie to a field) above the form's submit button. */
export function Submit({ label, error, busy, children }: { label: string; error?: string | undefined; busy?: boolean; children?: ReactNode }) {
  return (
    <>
      <ErrorNote error={error} />
      <div className="actions">
        <button className="primary" type="submit" disabled={busy}>
          {label}
        </button>
        {children}
      </div>
    </>
  );
}
