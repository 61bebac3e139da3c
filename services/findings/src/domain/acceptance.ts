import { conflict, forbidden, validationError } from "@vulnscan/kit/core";
import { applyUpdate, type Change, type FindingUpdate } from "./changes.js";
import type { FindingEvent } from "./events.js";
import { SYSTEM, actorName, type AcceptanceDoc, type Actor, type FindingDoc, type HistoryEntry } from "./types.js";

/*
 * Risk acceptance with an expiry and, when the organization asks for it, a second user's
 * approval. `accepted` stays one of the spec's five statuses: while an acceptance waits for
 * approval the status does not move and the finding carries `acceptance.state = pending`. An
 * approved acceptance keeps the finding accepted until `expires_at`; then it reopens by itself
 * (history by system, vulnerability.status_changed and finding.acceptance_expired).
 */

/** The longest an acceptance may run: a year, so every accepted risk is looked at again at least yearly. */
export const ACCEPTANCE_MAX_DAYS = 365;
export const JUSTIFICATION_MAX_CHARS = 2000;
const DAY_MS = 24 * 3600_000;

export interface AcceptanceInput {
  expires_at: Date;
  justification: string;
}

const iso = (d: Date) => d.toISOString();
const who = (a: Actor | undefined) => a?.user_id || a?.api_key_id || "";

/**
 * The acceptance a move to accepted carries, checked (`prefix`: where the fields sit in the
 * request, for the error's `field`). Required with status accepted, refused without it.
 */
export function checkAcceptance(
  status: string | undefined,
  input: Partial<AcceptanceInput> | undefined,
  now: Date,
  prefix = "acceptance",
): AcceptanceInput | undefined {
  if (status !== "accepted") {
    if (input) throw validationError(prefix, `${prefix} is taken only with status accepted`);
    return undefined;
  }
  if (!input?.expires_at) throw validationError(`${prefix}.expires_at`, `status accepted requires ${prefix}.expires_at`);
  const justification = (input.justification ?? "").trim();
  if (!justification) throw validationError(`${prefix}.justification`, `status accepted requires ${prefix}.justification`);
  if (justification.length > JUSTIFICATION_MAX_CHARS)
    throw validationError(`${prefix}.justification`, `${prefix}.justification must be at most ${JUSTIFICATION_MAX_CHARS} characters`);
  if (input.expires_at <= now) throw validationError(`${prefix}.expires_at`, `${prefix}.expires_at must be in the future`);
  if (input.expires_at.getTime() > now.getTime() + ACCEPTANCE_MAX_DAYS * DAY_MS)
    throw validationError(`${prefix}.expires_at`, `${prefix}.expires_at must be at most ${ACCEPTANCE_MAX_DAYS} days ahead`);
  return { expires_at: input.expires_at, justification };
}

/** A triage change with the other fields of the update and extra history/events appended. */
function merge(f: FindingDoc, base: Change | null, set: Change["set"], history: HistoryEntry[], events: FindingEvent[], now: Date): Change {
  const c = base ?? { set: {}, events: [] };
  const all = { ...c.set, ...set, history: [...(c.set.history ?? f.history), ...history], updated_at: now };
  const after = { ...f, ...all } as FindingDoc;
  // Every event describes the finding as it stands after the whole change.
  return { set: all, events: [...c.events, ...events].map((e) => ({ ...e, finding: after })) };
}

/**
 * A person's update that moves a finding to accepted (or renews an acceptance). Without
 * approval the status moves now; with it only the other fields change and the acceptance waits.
 */
export function applyAcceptance(
  f: FindingDoc,
  u: FindingUpdate,
  input: AcceptanceInput,
  requireApproval: boolean,
  actor: Actor | undefined,
  now: Date,
): Change {
  const user = actorName(actor);
  const acceptance: AcceptanceDoc = {
    state: requireApproval ? "pending" : "approved",
    justification: input.justification,
    expires_at: input.expires_at,
    requested_by: user,
    requested_by_id: who(actor),
    requested_at: now,
    decided_by: "",
    decided_at: requireApproval ? null : now,
    decision_note: "",
  };
  if (requireApproval) {
    const { status: _status, ...rest } = u;
    const base = applyUpdate(f, rest, actor, now);
    const history = [{ action: "acceptance_requested", from: null, to: iso(input.expires_at), user, timestamp: now }];
    const events: FindingEvent[] = [{ type: "finding.acceptance_requested", finding: f, at: now }];
    return merge(f, base, { acceptance }, history, events, now);
  }
  const base = applyUpdate(f, u, actor, now);
  const history = [{ action: "acceptance_set", from: f.accepted_until ? iso(f.accepted_until) : null, to: iso(input.expires_at), user, timestamp: now }];
  return merge(f, base, { acceptance, accepted_until: input.expires_at }, history, [], now);
}

/**
 * The parts of a status change away from accepted, or of a pending acceptance a status change
 * makes moot: the acceptance ends (withdrawn) and no expiry is left to run.
 */
export function endAcceptance(f: FindingDoc, c: Change | null): Change | null {
  if (!c || c.set.status === undefined || c.set.status === "accepted") return c;
  const a = f.acceptance;
  const live = a && (a.state === "pending" || (a.state === "approved" && f.status === "accepted"));
  if (!live && !f.accepted_until) return c;
  const set = { ...c.set, accepted_until: null, ...(live ? { acceptance: { ...a, state: "withdrawn" as const } } : {}) };
  return { set, events: c.events.map((e) => ({ ...e, finding: { ...e.finding, ...set } })) };
}

/** A second user's decision on a pending acceptance. Throws when there is none, when it ran out, or when the approver is the requester. */
export function decideAcceptance(f: FindingDoc, approve: boolean, note: string, actor: Actor | undefined, now: Date): Change {
  const a = f.acceptance;
  if (a?.state !== "pending") throw conflict("This finding has no acceptance waiting for approval");
  if (!actor?.user_id) throw forbidden("Only a signed-in user can approve or reject an acceptance");
  if (actor.user_id === a.requested_by_id) throw forbidden("The acceptance must be decided by a user other than the one who asked");
  if (approve && a.expires_at <= now) throw conflict("The acceptance expired before it was approved");
  const user = actorName(actor);
  const decided: AcceptanceDoc = { ...a, state: approve ? "approved" : "rejected", decided_by: user, decided_at: now, decision_note: note };
  const history = [{ action: approve ? "acceptance_approved" : "acceptance_rejected", from: null, to: iso(a.expires_at), user, timestamp: now }];
  if (!approve) return merge(f, null, { acceptance: decided }, history, [], now);
  const base = applyUpdate(f, { status: "accepted" }, actor, now);
  return merge(f, base, { acceptance: decided, accepted_until: a.expires_at }, history, [], now);
}

/** An approved acceptance that ran out: back to open by system. Null when there is none (or another replica reopened it). */
export function expireAcceptance(f: FindingDoc, now: Date): Change | null {
  if (f.status !== "accepted" || !f.accepted_until || f.accepted_until > now) return null;
  const system: Actor = { user_id: "", api_key_id: "", display_name: SYSTEM };
  const base = applyUpdate(f, { status: "open" }, system, now);
  const a = f.acceptance;
  const set = { accepted_until: null, ...(a ? { acceptance: { ...a, state: "expired" as const } } : {}) };
  const history = [{ action: "acceptance_expired", from: "accepted", to: "open", user: SYSTEM, timestamp: now }];
  return merge(f, base, set, history, [{ type: "finding.acceptance_expired", finding: f, at: now }], now);
}
