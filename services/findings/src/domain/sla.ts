import { validationError } from "@vulnscan/kit/core";
import type { Change } from "./changes.js";
import type { FindingEvent } from "./events.js";
import { SEVERITIES, type DueSource, type FindingDoc, type Severity, type Status } from "./types.js";

/*
 * SLA deadlines on the spec's own `due_date`. An organization's policy gives days per severity
 * counted from the first detection; a finding whose CVE CISA lists as exploited (KEV) takes the
 * critical deadline, or KEV's own due date when that is earlier. A date a person set (PATCH)
 * wins and survives severity changes; clearing it (null) hands the finding back to the policy.
 *
 * The state (within, at_risk, breached) moves with time, so it is never stored: each finding
 * stores the instants it turns at_risk and breached, and reads compare them with the clock. A
 * finding with no running SLA stores NEVER there, so ranges and sorts need no null handling.
 */

/** "No instant": after every real date (sorts last ascending; no `<= now` reaches it). */
export const NEVER = new Date("9999-12-31T00:00:00.000Z");

/** The share of the time from detection to the deadline that counts as at risk: the last 20 %. */
export const AT_RISK_SHARE = 0.2;
export const SLA_DAYS_MAX = 3650;
const DAY_MS = 24 * 3600_000;

/** Statuses an SLA runs in; resolved, false_positive and accepted stop it. */
export const SLA_STATUSES: readonly Status[] = ["open", "in_progress"];
export const SLA_STATES = ["within", "at_risk", "breached"] as const;
export type SlaState = (typeof SLA_STATES)[number];

/** Days per severity; null = no deadline for that severity. */
export type SlaDays = Record<Severity, number | null>;

/** Info findings get no deadline: they describe, they do not ask for a fix. */
export const DEFAULT_SLA_DAYS: SlaDays = { critical: 7, high: 30, medium: 90, low: 180, info: null };

export interface FindingsPolicy {
  sla_days: SlaDays;
  /** A move to accepted waits for a second user's approval. */
  require_acceptance_approval: boolean;
  /**
   * Auto-resolution (issue 28, off by default): a later completed scan that covered a finding's
   * check on its component and did not match resolves it as `not_detected`. Absent = off.
   */
  auto_resolve?: boolean;
  /** null while the defaults apply. */
  updated_at: Date | null;
  updated_by: string;
  /** The refresh of open findings' due dates this policy started (absent: nothing to refresh). */
  refresh?: PolicyRefresh;
}

/**
 * Open findings' policy due dates brought to a saved policy, in batches by descending id:
 * `after` is the last id done, `refreshed` how many due dates moved so far. One worker at a
 * time moves it: the one holding it until `leased_until` (the saving request, then a replica's
 * housekeeping), so batches are neither done twice nor counted apart.
 */
export interface PolicyRefresh {
  state: "running" | "done";
  after: string;
  refreshed: number;
  leased_until: Date;
}

export const DEFAULT_POLICY: FindingsPolicy = {
  sla_days: DEFAULT_SLA_DAYS,
  require_acceptance_approval: false,
  auto_resolve: false,
  updated_at: null,
  updated_by: "",
};

/** A policy as a person sends it, checked: whole days from 1 to SLA_DAYS_MAX, null for none. */
export function checkSlaDays(days: Partial<Record<Severity, number | null>>): SlaDays {
  const out = { ...DEFAULT_SLA_DAYS };
  for (const s of SEVERITIES) {
    const d = days[s];
    if (d === undefined) {
      out[s] = null;
      continue;
    }
    if (d !== null && (!Number.isInteger(d) || d < 1 || d > SLA_DAYS_MAX))
      throw validationError(`sla_days.${s}`, `sla_days.${s} must be a whole number of days from 1 to ${SLA_DAYS_MAX}, or null`);
    out[s] = d;
  }
  return out;
}

const addDays = (d: Date, days: number) => new Date(d.getTime() + days * DAY_MS);
const same = (a: Date | null | undefined, b: Date | null | undefined) => (a ?? null)?.getTime() === (b ?? null)?.getTime();

/** The policy's deadline of a finding (KEV: the critical one, or KEV's own date when earlier). */
export function policyDue(f: Pick<FindingDoc, "severity" | "kev" | "kev_due_date" | "detected_at">, days: SlaDays): { due: Date | null; source: DueSource } {
  const candidates = [days[f.severity], f.kev ? days.critical : null].filter((x): x is number => x !== null);
  const own = candidates.length ? Math.min(...candidates) : null;
  let due = own === null ? null : addDays(f.detected_at, own);
  let source: DueSource = due ? "policy" : "";
  if (f.kev && f.kev_due_date && (!due || f.kev_due_date < due)) {
    due = f.kev_due_date;
    source = "kev";
  }
  return { due, source };
}

/** When a deadline turns at risk: the last AT_RISK_SHARE of the time from `start` to it (at once when it is not after `start`). */
export function atRiskAt(start: Date, due: Date): Date {
  const span = due.getTime() - start.getTime();
  return span <= 0 ? due : new Date(due.getTime() - Math.round(span * AT_RISK_SHARE));
}

export const slaRunning = (f: Pick<FindingDoc, "status" | "due_date">) => SLA_STATUSES.includes(f.status) && f.due_date !== null;

/** Where a finding's SLA stands at `now`; null when none runs. */
export function slaStateAt(f: Pick<FindingDoc, "status" | "due_date" | "detected_at" | "sla_at_risk_at">, now: Date): SlaState | null {
  if (!slaRunning(f) || !f.due_date) return null;
  if (now >= f.due_date) return "breached";
  const risk = f.sla_at_risk_at && f.sla_at_risk_at < NEVER ? f.sla_at_risk_at : atRiskAt(f.detected_at, f.due_date);
  return now >= risk ? "at_risk" : "within";
}

type SlaFields = Pick<
  FindingDoc,
  "due_date" | "due_source" | "due_sort" | "sla_at_risk_at" | "sla_breach_at" | "sla_breach_pending_at" | "sla_breach_announced"
>;

/**
 * The SLA fields a finding must store in state `n` (the finding after a change). `userTouched`:
 * the change set due_date itself (only a person's PATCH does), so the date is theirs — or, when
 * cleared, the policy's again. Without a running SLA a policy date stays as it was (history of
 * the deadline a resolved finding had), and the instants are NEVER.
 */
export function slaFields(n: FindingDoc, days: SlaDays, userTouched: boolean): SlaFields {
  let due = n.due_date;
  // Findings stored before SLA upkeep have no source: a date on them was set with PATCH.
  let source: DueSource = userTouched ? (n.due_date ? "user" : "") : (n.due_source ?? (n.due_date ? "user" : ""));
  if (source !== "user" && SLA_STATUSES.includes(n.status)) ({ due, source } = policyDue(n, days));
  const running = SLA_STATUSES.includes(n.status) && due !== null;
  const announced = n.sla_breach_announced ?? null;
  return {
    due_date: due,
    due_source: source,
    due_sort: due ?? NEVER,
    sla_at_risk_at: running ? atRiskAt(n.detected_at, due!) : NEVER,
    sla_breach_at: running ? due! : NEVER,
    // A deadline is announced once: a new deadline can breach again, the same one never twice.
    sla_breach_pending_at: running && !same(announced, due) ? due : null,
    sla_breach_announced: announced,
  };
}

/** Only the SLA fields that differ from `f` (a write changes nothing it does not need to). */
export function slaDiff(f: FindingDoc, next: SlaFields): Partial<SlaFields> {
  const out: Partial<SlaFields> = {};
  for (const [k, v] of Object.entries(next) as [keyof SlaFields, SlaFields[keyof SlaFields]][]) {
    const cur = f[k];
    const equal = v instanceof Date || cur instanceof Date ? same(cur as Date | null | undefined, v as Date | null) : cur === v;
    if (!equal) (out as Record<string, unknown>)[k] = v;
  }
  return out;
}

/** A change with the SLA fields it implies added (null when neither it nor they change anything). */
export function withSla(f: FindingDoc, c: Change | null, days: SlaDays): Change | null {
  const base = c ?? { set: {}, events: [] };
  const n = { ...f, ...base.set } as FindingDoc;
  const sla = slaDiff(f, slaFields(n, days, "due_date" in base.set));
  const set = { ...base.set, ...sla };
  if (Object.keys(set).length === 0 && base.events.length === 0) return null;
  // Events carry the finding as it stands after the change, SLA fields included.
  const events = base.events.map((e) => ({ ...e, finding: { ...e.finding, ...sla } }));
  return { set, events };
}

/** finding.sla_breached for a finding whose pending deadline has passed; null when there is none (or another replica announced it). */
export function announceBreach(f: FindingDoc, now: Date): Change | null {
  if (!f.sla_breach_pending_at || f.sla_breach_pending_at > now || !slaRunning(f) || !same(f.sla_breach_pending_at, f.due_date)) return null;
  const set = { sla_breach_pending_at: null, sla_breach_announced: f.due_date };
  const events: FindingEvent[] = [{ type: "finding.sla_breached", finding: { ...f, ...set }, at: now }];
  return { set, events };
}
