// Assets (issue 29): the targets the organization proves it owns before scanning beyond the
// operator's own networks (gateway/src/routes/targets). Add a domain, address or range, copy the
// record or file it asks for, check now; see each target's state and its recent attempts, and its
// inventory (item 4): last scan, open findings by severity, SLA breaches, open ports and services.
import { type FormEvent, useState } from "react";
import { api } from "../api/client.js";
import { ErrorNote, Loading, Pager, useLoad } from "../components/ui.js";
import { count, when, words } from "../words.js";

interface Challenge {
  method: string;
  location: string;
  value: string;
  instructions: string;
}

interface Attempt {
  method: string;
  at: string;
  by?: string;
  source: string;
  ok: boolean;
  answer: string;
  error?: string;
}

interface Target {
  id: string;
  target: string;
  kind: string;
  created_at: string;
  verification: {
    status: string;
    token: string;
    challenges: Challenge[];
    method?: string;
    verified_at?: string;
    next_check_at?: string;
    expired_at?: string;
    last_error: string;
    include_subdomains: boolean;
    proven_addresses: string[];
  };
  attempts?: Attempt[];
  inventory?: Inventory;
}

interface SeenPort {
  host: string;
  address: string;
  port: number;
  transport: string;
  service: string;
  product: string;
  first_seen_at: string;
  last_seen_at: string;
  last_scan_id: string;
}

/** GET /api/v1/targets/{id} only: what scans saw, from summaries the services keep. */
interface Inventory {
  last_scan: { scan_id: string; status: string; ended_at: string } | null;
  open_findings: Record<"critical" | "high" | "medium" | "low" | "info" | "total", number>;
  sla_breaches: number;
  ports: SeenPort[];
}

const SEVERITIES = ["critical", "high", "medium", "low", "info"] as const;

interface TargetPage {
  items: Target[];
  total: number;
  page: number;
  per_page: number;
  pages: number;
}

/* The API's spellings in people's words (this page's own values; words.ts holds the shared ones). */
const STATUS: Record<string, string> = { pending: "Waiting for proof", verified: "Verified", expired: "Expired", failed: "Check failed" };
const METHOD: Record<string, string> = {
  dns_txt: "DNS TXT record",
  http_file: "File on the web server",
  reverse_dns: "Reverse DNS",
  attestation: "Operator's attestation",
};
const PROVED_BY: Record<string, string> = {
  dns_txt: "a DNS TXT record",
  http_file: "the file on the web server",
  reverse_dns: "reverse DNS",
  attestation: "the operator's attestation",
};
const KIND: Record<string, string> = { domain: "Domain", ip: "Address", cidr: "Range" };
const SOURCE: Record<string, string> = { api: "asked", recheck: "re-check", schedule: "before a scheduled scan", operator: "operator" };
const say = (table: Record<string, string>, v: string | undefined) => (v ? (table[v] ?? v.replace(/_/g, " ")) : "—");
const badge = (status: string) => (status === "verified" ? "asset-ok" : status === "pending" ? "" : "asset-bad");

const targetPath = (id: string) => `/api/v1/targets/${encodeURIComponent(id)}`;

export function Assets() {
  const [page, setPage] = useState(1);
  const list = useLoad(() => api<TargetPage>("/api/v1/targets", { query: { page, per_page: 20 } }), [page]);
  const [adding, setAdding] = useState(false);
  const [addError, setAddError] = useState<string>();

  async function add(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const target = String(new FormData(form).get("target") ?? "").trim();
    setAddError(undefined);
    if (!target) return setAddError("Enter a domain, an IP address or a range.");
    setAdding(true);
    try {
      await api<Target>("/api/v1/targets", { method: "POST", body: { target } });
      form.reset();
      await list.reload();
    } catch (err) {
      setAddError((err as Error).message);
    } finally {
      setAdding(false);
    }
  }

  return (
    <section aria-labelledby="assets-title">
      <h1 id="assets-title">Assets</h1>
      <p className="muted">
        Scans of anything outside this installation's own networks need proof that your organization owns it: every address a scan would touch must be covered
        by a verified asset.
      </p>
      <form className="card form" aria-labelledby="add-asset" onSubmit={add} noValidate>
        <h2 id="add-asset">Add an asset</h2>
        <label htmlFor="asset-target">Domain, IP address or range</label>
        <input id="asset-target" name="target" size={44} placeholder="shop.example.com, 203.0.113.10 or 203.0.113.0/28" aria-describedby="asset-error" />
        <p id="asset-error">
          <ErrorNote error={addError} />
        </p>
        <button type="submit" disabled={adding}>
          {adding ? "Adding…" : "Add asset"}
        </button>
      </form>
      <ErrorNote error={list.error} />
      {list.loading && !list.data && <Loading what="assets" />}
      {list.data && list.data.total === 0 && <p className="muted">No assets yet.</p>}
      {list.data?.items.map((t) => (
        <AssetCard key={t.id} target={t} onChange={list.reload} />
      ))}
      {list.data && list.data.pages > 1 && <Pager page={list.data.page} pages={list.data.pages} total={list.data.total} onPage={setPage} />}
    </section>
  );
}

function AssetCard({ target, onChange }: { target: Target; onChange: () => Promise<void> }) {
  const [t, setT] = useState(target);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [open, setOpen] = useState(target.verification.status !== "verified");
  const v = t.verification;

  async function check() {
    setBusy(true);
    setError(undefined);
    try {
      setT(await api<Target>(`${targetPath(t.id)}/verify`, { method: "POST", body: {} }));
      setOpen(true);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  }

  async function remove() {
    if (!window.confirm(`Delete ${t.target}? Later scans of what only it covered will be refused.`)) return;
    try {
      await api(targetPath(t.id), { method: "DELETE" });
      await onChange();
    } catch (err) {
      setError((err as Error).message);
    }
  }

  async function history() {
    try {
      setT(await api<Target>(targetPath(t.id)));
      setOpen(true);
    } catch (err) {
      setError((err as Error).message);
    }
  }

  return (
    <article className="card" aria-labelledby={`asset-${t.id}`}>
      <h2 id={`asset-${t.id}`}>
        {t.target} <span className="muted">({say(KIND, t.kind)})</span> <span className={`badge ${badge(v.status)}`}>{say(STATUS, v.status)}</span>
      </h2>
      {v.status === "verified" && (
        <p>
          Proved by {say(PROVED_BY, v.method)} on {when(v.verified_at)}
          {v.include_subdomains ? ", subdomains included" : ""}
          {v.proven_addresses.length > 0 ? ` (addresses ${v.proven_addresses.join(", ")})` : ""}.{" "}
          {v.next_check_at ? `Checked again by ${when(v.next_check_at)}.` : "Not re-checked: vouched for by the operator."}
        </p>
      )}
      {v.status === "expired" && (
        <p className="error">
          The proof was gone at the re-check on {when(v.expired_at)}: {v.last_error}. Publish it again and check now.
        </p>
      )}
      {v.status === "failed" && <p className="error">Last check: {v.last_error}</p>}
      {open && v.status !== "verified" && (
        <div>
          <h3>Publish one of these</h3>
          {v.challenges.map((c) => (
            <ChallengeBox key={c.method} challenge={c} />
          ))}
        </div>
      )}
      <ErrorNote error={error} />
      <p>
        <button type="button" onClick={() => void check()} disabled={busy}>
          {busy ? "Checking…" : "Check now"}
        </button>{" "}
        <button type="button" className="link" onClick={() => void history()}>
          Recent checks
        </button>{" "}
        {v.status === "verified" && (
          <button type="button" className="link" onClick={() => setOpen(!open)}>
            {open ? "Hide" : "Show"} what is published
          </button>
        )}{" "}
        <button type="button" className="link danger" onClick={() => void remove()}>
          Delete
        </button>
      </p>
      {open && v.status === "verified" && v.challenges.map((c) => <ChallengeBox key={c.method} challenge={c} />)}
      <AssetInventory id={t.id} name={t.target} />
      {open && t.attempts && t.attempts.length > 0 && (
        <table>
          <caption>Recent checks</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Method</th>
              <th scope="col">By</th>
              <th scope="col">Result</th>
              <th scope="col">Found</th>
            </tr>
          </thead>
          <tbody>
            {t.attempts.map((a) => (
              <tr key={`${a.at}-${a.method}`}>
                <td>{when(a.at)}</td>
                <td>{say(METHOD, a.method)}</td>
                <td>{a.by ?? say(SOURCE, a.source)}</td>
                <td>{a.ok ? "Proved" : (a.error ?? "Not proved")}</td>
                <td>
                  <code>{a.answer || "—"}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </article>
  );
}

/** The inventory of one asset, read with the asset (its own request: the list carries none). */
function AssetInventory({ id, name }: { id: string; name: string }) {
  const one = useLoad(() => api<Target>(targetPath(id)), [id]);
  const inv = one.data?.inventory;
  if (one.error) return <ErrorNote error={one.error} />;
  if (!inv) return one.loading ? <Loading what={`the inventory of ${name}`} /> : null;
  const open = inv.open_findings;
  const shown = SEVERITIES.filter((s) => open[s] > 0).map((s) => `${open[s].toLocaleString()} ${words("severity", s).toLowerCase()}`);
  return (
    <section className="inventory" aria-label={`Inventory of ${name}`}>
      <h3>Inventory</h3>
      <dl className="facts">
        <dt>Last scan</dt>
        <dd>
          {inv.last_scan ? (
            <>
              <a href={`#/scans/${encodeURIComponent(inv.last_scan.scan_id)}`}>{words("scanStatus", inv.last_scan.status)}</a> {when(inv.last_scan.ended_at)}
            </>
          ) : (
            "Not scanned yet"
          )}
        </dd>
        <dt>Open findings</dt>
        <dd>
          {count(open.total, "open finding")}
          {shown.length > 0 ? `: ${shown.join(", ")}` : ""}
        </dd>
        <dt>Overdue</dt>
        <dd>{inv.sla_breaches > 0 ? <span className="error">{count(inv.sla_breaches, "finding")}</span> : "None"}</dd>
      </dl>
      {inv.ports.length === 0 ? (
        <p className="muted">No open ports seen yet.</p>
      ) : (
        <table>
          <caption>Open ports and services</caption>
          <thead>
            <tr>
              <th scope="col">Host</th>
              <th scope="col">Port</th>
              <th scope="col">Service</th>
              <th scope="col">First seen</th>
              <th scope="col">Last seen</th>
            </tr>
          </thead>
          <tbody>
            {inv.ports.map((p) => (
              <tr key={`${p.address}-${p.port}`}>
                <td>{p.host === p.address ? p.address : `${p.host} (${p.address})`}</td>
                <td>
                  {p.port}/{p.transport}
                </td>
                <td>{[p.service, p.product].filter((x) => x && x !== "unknown").join(" · ") || "Not identified"}</td>
                <td>{when(p.first_seen_at)}</td>
                <td>{when(p.last_seen_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function ChallengeBox({ challenge: c }: { challenge: Challenge }) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    try {
      await navigator.clipboard.writeText(c.value);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  }
  return (
    <div className="challenge">
      <h4>{say(METHOD, c.method)}</h4>
      <p>{c.instructions}</p>
      {c.location && (
        <p className="copy">
          <span>Where:</span> <code>{c.location}</code>
        </p>
      )}
      {c.value && (
        <p className="copy">
          <span>Value:</span> <code>{c.value}</code>{" "}
          <button type="button" onClick={() => void copy()} aria-label={`Copy the ${say(METHOD, c.method)} value`}>
            {copied ? "Copied" : "Copy"}
          </button>
        </p>
      )}
    </div>
  );
}
