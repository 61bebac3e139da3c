import { useState } from "react";
import { endOfDay } from "../api/bodies.js";
import { api } from "../api/client.js";
import { SEVERITIES, type FindingDetail, type Severity } from "../api/types.js";
import { text, useApiForm } from "../components/forms.js";
import { ErrorNote, Field, Loading, Submit, useLoad, when } from "../components/ui.js";
import { day, words } from "../words.js";

/*
 * SLA deadlines and risk acceptance in the console (issue 28): the SLA badge of the list and the
 * finding, the acceptance part of the triage form, the pending-approval card, and the
 * organization's findings policy under Settings.
 */

export const SLA_STATES = ["within", "at_risk", "breached"] as const;
export type SlaState = (typeof SLA_STATES)[number];
const SLA_WORDS: Record<SlaState, string> = { within: "Within SLA", at_risk: "SLA at risk", breached: "SLA breached" };
export const slaWords = (s: string) => SLA_WORDS[s as SlaState] ?? s;
const SOURCE_WORDS: Record<string, string> = { user: "set by a person", policy: "from the SLA policy", kev: "CISA KEV due date" };
/** The longest an acceptance may run (the API refuses more). */
export const ACCEPTANCE_MAX_DAYS = 365;

/** A finding's SLA in words with its deadline: "SLA at risk · due 12 Dec 2026"; "—" without one. */
export function SlaBadge({ state, due }: { state: string | null | undefined; due: string | null | undefined }) {
  if (!due) return <span className="muted">—</span>;
  return (
    <span className="sla">
      {state && <span className={`badge sla-${state}`}>{slaWords(state)}</span>} <span className="small">due {day(due)}</span>
    </span>
  );
}

/** The SLA line of a finding's page: state, deadline and where the deadline came from. */
export function SlaLine({ f }: { f: FindingDetail }) {
  if (!f.due_date) return <>No deadline (the SLA policy sets none for this severity).</>;
  return (
    <>
      <SlaBadge state={f.sla_state} due={f.due_date} /> <span className="muted small">({SOURCE_WORDS[f.due_date_source ?? ""] ?? "set"})</span>
    </>
  );
}

/** The triage form's acceptance fields, shown while "Accepted" is chosen: until when (at most a year) and why. */
export function AcceptanceFields({ errors, current }: { errors: Record<string, string>; current: FindingDetail["acceptance"] }) {
  const max = new Date(Date.now() + ACCEPTANCE_MAX_DAYS * 86_400_000).toISOString().slice(0, 10);
  const min = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  return (
    <fieldset className="acceptance">
      <legend>Risk acceptance</legend>
      <Field label="Accepted until" error={errors.expires_at} hint={`At most ${ACCEPTANCE_MAX_DAYS} days ahead; the finding reopens by itself then.`}>
        {(id, d) => (
          <input
            id={id}
            name="acceptance_expires_at"
            type="date"
            min={min}
            max={max}
            defaultValue={current?.expires_at?.slice(0, 10) ?? ""}
            aria-describedby={d}
          />
        )}
      </Field>
      <Field label="Justification" error={errors.justification}>
        {(id, d) => <textarea id={id} name="acceptance_justification" rows={2} maxLength={2000} defaultValue="" aria-describedby={d} />}
      </Field>
    </fieldset>
  );
}

/** The acceptance part of a PATCH body from the triage form (the API checks it). */
export function acceptanceBody(form: FormData) {
  const until = text(form, "acceptance_expires_at");
  return { expires_at: until ? endOfDay(until) : "", justification: text(form, "acceptance_justification") };
}

/** The finding's latest acceptance: pending ones with approve / reject, others as a record. */
export function AcceptanceCard({ f, path, reload }: { f: FindingDetail; path: string; reload: () => Promise<void> }) {
  const a = f.acceptance;
  const [error, setError] = useState<string>();
  if (!a) return null;
  async function decide(decision: "approve" | "reject", note: string) {
    setError(undefined);
    try {
      await api(`${path}/acceptance/decision`, { method: "POST", body: { decision, ...(note ? { note } : {}) } });
      await reload();
    } catch (err) {
      setError((err as Error).message);
    }
  }
  return (
    <section className={`card acceptance-${a.state}`} aria-labelledby="acceptance-title">
      <h2 id="acceptance-title">Risk acceptance</h2>
      <p>
        <strong>{ACCEPTANCE_WORDS[a.state] ?? a.state}</strong> · until {day(a.expires_at)}
      </p>
      <blockquote>{a.justification}</blockquote>
      <p className="muted small">
        Asked by {a.requested_by} on {when(a.requested_at)}
        {a.decided_by && (
          <>
            {" "}
            · {a.state === "rejected" ? "rejected" : "approved"} by {a.decided_by}
            {a.decision_note && <>: “{a.decision_note}”</>}
          </>
        )}
      </p>
      {a.state === "pending" && (
        <form
          aria-label="Decide the acceptance"
          onSubmit={(e) => {
            e.preventDefault();
            const submitter = (e.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
            void decide(submitter?.value === "reject" ? "reject" : "approve", text(new FormData(e.currentTarget), "note"));
          }}
        >
          <p>Waiting for a second person's approval: the status stays {f.status === "open" ? "Open" : words("findingStatus", f.status)} until then.</p>
          <Field label="Note">{(id) => <input id={id} name="note" maxLength={2000} />}</Field>
          <div className="actions">
            <button className="primary" type="submit" value="approve">
              Approve
            </button>
            <button type="submit" value="reject">
              Reject
            </button>
          </div>
        </form>
      )}
      <ErrorNote error={error} />
    </section>
  );
}

const ACCEPTANCE_WORDS: Record<string, string> = {
  pending: "Waiting for approval",
  approved: "Accepted",
  rejected: "Rejected",
  expired: "Expired (reopened)",
  withdrawn: "Withdrawn",
};

interface Policy {
  sla_days: Record<Severity, number | null>;
  require_acceptance_approval: boolean;
  auto_resolve: boolean;
  updated_at: string | null;
  updated_by: string;
  refresh_state: "running" | "done";
  refreshed: number;
}

/** The API names a day count `sla_days.<severity>`: the form places it on the severity's field. */
const POLICY_FIELDS = [...SEVERITIES, "require_acceptance_approval", "auto_resolve"] as const;

/** Settings → Findings policy: SLA days per severity, the acceptance approval rule and auto-resolution. */
export function FindingsPolicy() {
  const policy = useLoad(() => api<Policy>("/api/v1/findings/policy"), []);
  const [saved, setSaved] = useState<Policy>();
  const { errors, busy, onSubmit } = useApiForm(POLICY_FIELDS, async (form) => {
    const sla_days = Object.fromEntries(SEVERITIES.map((s) => [s, text(form, s) ? Number(text(form, s)) : null]));
    const res = await api<Policy>("/api/v1/findings/policy", {
      method: "PUT",
      body: {
        sla_days,
        require_acceptance_approval: form.get("require_acceptance_approval") === "on",
        auto_resolve: form.get("auto_resolve") === "on",
      },
    });
    setSaved(res);
    await policy.reload();
  });
  const p = policy.data;
  if (!p) return policy.error ? <ErrorNote error={policy.error} /> : <Loading what="findings policy" />;
  return (
    <form className="card form" aria-labelledby="policy-title" onSubmit={onSubmit} key={p.updated_at ?? "defaults"}>
      <h2 id="policy-title">Findings policy</h2>
      <p className="muted">
        Days from detection to each open finding's due date. A finding on CISA's Known Exploited Vulnerabilities list gets the critical deadline, or KEV's own
        due date when earlier. A due date someone sets on a finding is kept. Empty: no deadline.
      </p>
      <div className="sla-days">
        {SEVERITIES.map((s) => (
          <Field key={s} label={`${words("severity", s)} (days)`} error={errors[s]}>
            {(id, d) => <input id={id} name={s} type="number" defaultValue={p.sla_days[s] ?? ""} aria-describedby={d} />}
          </Field>
        ))}
      </div>
      <label className="toggle">
        <input type="checkbox" name="require_acceptance_approval" defaultChecked={p.require_acceptance_approval} /> Accepting a risk needs a second person's
        approval
      </label>
      <label className="toggle">
        <input type="checkbox" name="auto_resolve" defaultChecked={p.auto_resolve} /> Resolve a finding when a later scan ran its check on the same component
        and no longer found it
      </label>
      <p className="muted small">
        Only a check that ran and got an answer counts: a finding on a host that was down, a port that was closed or a check the scan did not run stays open.
      </p>
      <p className="muted small">
        {p.updated_at ? `Last changed by ${p.updated_by} on ${when(p.updated_at)}.` : "The defaults apply."}
        {p.refresh_state === "running" && ` Open findings are still getting the new deadlines (${p.refreshed} so far); reload to follow.`}
      </p>
      <Submit label="Save policy" error={errors[""]} busy={busy}>
        {saved && (
          <span role="status" className="ok">
            Saved · {saved.refreshed} open {saved.refreshed === 1 ? "finding" : "findings"} got the new deadline
            {saved.refresh_state === "running" ? " so far; the rest follow in the background" : ""}
          </span>
        )}
      </Submit>
    </form>
  );
}
