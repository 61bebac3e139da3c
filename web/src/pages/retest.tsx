import { useEffect, useRef, useState } from "react";
import { api } from "../api/client.js";
import type { Page, Retest, RetestStarted } from "../api/types.js";
import { ErrorNote, useLoad, when } from "../components/ui.js";
import { words } from "../words.js";

/*
 * A finding's retest (issue 28): "Retest now" runs only the check that found it, against its
 * component, and shows the verdict live (the list is polled until that retest has one). A fixed
 * verdict resolves the finding, so the page reloads it; an inconclusive one says why and changes
 * nothing. The last few retests stay listed with their verdicts.
 */

const POLL_MS = 1500;
/** The API's deadline is 60 s plus a grace for a lost scanner; polling stops a little after. */
const GIVE_UP_MS = 100_000;

function Verdict({ r }: { r: Retest }) {
  if (r.status !== "completed") return <span className="badge status-in_progress">Running…</span>;
  const kind = r.verdict === "fixed" ? "status-resolved" : r.verdict === "still_vulnerable" ? "sev-high" : "status-expired";
  return (
    <>
      <span className={`badge ${kind}`}>{words("retestVerdict", r.verdict)}</span>
      {r.verdict === "inconclusive" && r.reason && <span className="small"> · {words("retestReason", r.reason)}</span>}
    </>
  );
}

export function RetestCard({ findingId, onVerdict }: { findingId: string; onVerdict: (r: Retest) => void }) {
  const path = `/api/v1/findings/${encodeURIComponent(findingId)}`;
  const list = useLoad(() => api<Page<Retest>>(`${path}/retests?per_page=5`), [findingId]);
  const [running, setRunning] = useState<string>();
  const [error, setError] = useState<Error>();
  const [remaining, setRemaining] = useState<number | null>();
  const started = useRef(0);
  // The latest callback, so a new one from the page does not restart the polling.
  const told = useRef(onVerdict);
  told.current = onVerdict;

  // While a retest runs, the list is read again until it has a verdict.
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(async () => {
      const page = await api<Page<Retest>>(`${path}/retests?per_page=5`).catch(() => undefined);
      if (!page) return;
      list.setData(page);
      const r = page.items.find((x) => x.id === running);
      if (r?.status === "completed") {
        setRunning(undefined);
        told.current(r);
      } else if (Date.now() - started.current > GIVE_UP_MS) setRunning(undefined);
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [running, path, list.setData]);

  async function retest() {
    setError(undefined);
    try {
      const r = await api<RetestStarted>(`${path}/retest`, { method: "POST", body: {} });
      started.current = Date.now();
      setRemaining(r.remaining_this_month);
      setRunning(r.id);
      await list.reload();
    } catch (err) {
      setError(err as Error);
    }
  }

  const items = list.data?.items ?? [];
  return (
    <section className="card retest" aria-labelledby="retest-title">
      <div className="heading">
        <h2 id="retest-title">Retest</h2>
        <button type="button" onClick={() => void retest()} disabled={running !== undefined}>
          {running ? "Retesting…" : "Retest now"}
        </button>
      </div>
      <p className="muted small">
        Runs only the check that found this, against its component. Fixed resolves the finding as verified; inconclusive changes nothing.
        {remaining !== undefined && remaining !== null && <> {remaining} retests left this month.</>}
      </p>
      <ErrorNote error={error ?? list.error} />
      {items.length > 0 && (
        <ul className="retests">
          {items.map((r) => (
            <li key={r.id}>
              <Verdict r={r} /> <span className="muted small">{when(r.completed_at ?? r.requested_at)}</span>
              {r.status === "completed" && r.detail && <div className="small">{r.detail}</div>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
