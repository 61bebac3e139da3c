import { randomBytes } from "node:crypto";
import { conflict, forbidden, notFound, validationError } from "@vulnscan/kit/core";
import type { ActorRecord, Page, PageRequest } from "./types.js";
import { parseTarget, type Cidr, type ParsedTarget, type Resolver, type TargetPolicy } from "./target.js";
import { addressesOf, canonical, coverageOf, listAddresses, nameCoveredBy } from "./targets-coverage.js";
import {
  CHALLENGE_PREFIX,
  CHECK_METHODS,
  METHODS_OF,
  PROOF_PREFIX,
  SUBDOMAINS_OPTION,
  WELL_KNOWN_PATH,
  type AttemptRecord,
  type AttemptSource,
  type CheckMethod,
  type TargetEvent,
  type TargetFilter,
  type TargetKind,
  type TargetRecord,
  type VerifyMethod,
} from "./targets-types.js";

/*
 * Targets and their verification (issue 29): the use cases behind TargetService, the re-check
 * loop, and the guard every scan and schedule passes. Look-ups go through `ProofReader`, whose
 * implementation (dns.ts, http-proof.ts) applies the same egress allowlist and SSRF rules as
 * webhooks; this module only decides what an answer proves.
 */

export interface TargetStore {
  /** False when the organization has the target already (unique org_id + target). */
  insert(t: TargetRecord): Promise<boolean>;
  get(orgId: string, id: string): Promise<TargetRecord | null>;
  /** Newest first. */
  list(orgId: string, filter: TargetFilter, page: PageRequest): Promise<Page<TargetRecord>>;
  delete(orgId: string, id: string): Promise<boolean>;
  /** Stores `to` if the target is still at `from`'s version (with its event); false otherwise. */
  update(from: TargetRecord, to: TargetRecord, events: TargetEvent[]): Promise<boolean>;
  /** The organization's verified and expired targets (what coverage is computed from). */
  provedOf(orgId: string): Promise<TargetRecord[]>;
  /** Verified targets of every organization whose re-check is due, earliest first. */
  dueForRecheck(now: Date, limit: number): Promise<TargetRecord[]>;
  recordAttempt(a: AttemptRecord): Promise<void>;
  /** Newest first. */
  attempts(orgId: string, targetId: string, limit: number): Promise<AttemptRecord[]>;
  /** Publishes what a target stored for Kafka; never throws (a relay retries). */
  publish(targetId: string): Promise<void>;
}

/** The look-ups a proof needs; each refuses addresses outside the egress policy. */
export interface ProofReader {
  /** TXT records of a name, each as its strings joined; [] when there are none. */
  txt(name: string): Promise<string[]>;
  /** PTR names of an address; [] when there are none. */
  reverse(address: string): Promise<string[]>;
  /**
   * The verification file of a host (a name or an address), from every address the name resolves
   * to (HTTPS, then HTTP). Rejects when one address cannot serve it.
   */
  httpFile(host: string): Promise<{ address: string; body: string }[]>;
}

export interface TargetSettings {
  /** Re-check a verified proof this long after the last successful check (30 days). */
  recheckAfterMs: number;
  /** SCAN_VERIFIED_NETWORKS: addresses that need no verification (the local lab, loopback). */
  exemptNetworks: Cidr[] | undefined;
  /** At most this many stale targets are re-checked before one scheduled scan. */
  maxRechecksPerRun: number;
}

/** A failed proof: what was found (answer) and why it does not prove the target. */
class ProofFailed extends Error {
  constructor(
    message: string,
    readonly answer: string,
  ) {
    super(message);
  }
}

const MAX_ANSWER = 500;
/** A method in the words a failed check's combined reason uses (the console shows it as it is). */
const METHOD_WORDS: Record<CheckMethod, string> = { dns_txt: "TXT record", http_file: "HTTP file", reverse_dns: "reverse DNS" };
const short = (s: string) => (s.length > MAX_ANSWER ? `${s.slice(0, MAX_ANSWER)}…` : s);
const newToken = () => randomBytes(18).toString("base64url");
const kindOf = (t: ParsedTarget): TargetKind => t.kind;
const canonicalText = (t: ParsedTarget) => (t.kind === "domain" ? t.name : t.kind === "ip" ? canonical(t.raw) : t.raw);

export const targetNotVerified = (detail: string) => forbidden(detail, "TARGET_NOT_VERIFIED");
export const targetVerificationExpired = (detail: string) => forbidden(detail, "TARGET_VERIFICATION_EXPIRED");

/** What to publish for each method a target allows, in words and values. */
export function challengesOf(t: Pick<TargetRecord, "kind" | "target" | "token">) {
  const proof = `${PROOF_PREFIX}${t.token}`;
  return METHODS_OF[t.kind].map((method) => {
    switch (method) {
      case "dns_txt":
        return {
          method,
          location: `${CHALLENGE_PREFIX}.${t.target}`,
          value: proof,
          instructions: `Publish a DNS TXT record at ${CHALLENGE_PREFIX}.${t.target} with the value "${proof}". To cover every subdomain of ${t.target} too, publish "${proof} ${SUBDOMAINS_OPTION}". Then ask for a check.`,
        };
      case "http_file": {
        const where = t.kind === "cidr" ? `every address of ${t.target}` : t.target;
        return {
          method,
          location: `https://${t.kind === "cidr" ? "<address>" : t.target}${WELL_KNOWN_PATH}`,
          value: proof,
          instructions: `Serve a file at ${WELL_KNOWN_PATH} on ${where} (HTTPS, or HTTP) whose content is "${proof}". Redirects are not followed. Then ask for a check.`,
        };
      }
      case "reverse_dns":
        return {
          method,
          location: "",
          value: "",
          instructions: `Make the reverse DNS (PTR) of every address of ${t.target} a name under a domain your organization has verified. Then ask for a check.`,
        };
      default:
        return {
          method,
          location: "",
          value: "",
          instructions: "Ask the operator of this installation to vouch for the range (npm run admin -- verify-target).",
        };
    }
  });
}

/** A published proof names the token, optionally followed by the subdomains option. */
function proofIn(text: string, token: string): { subdomains: boolean } | undefined {
  for (const line of text.split(/\r?\n/)) {
    const words = line
      .trim()
      .split(/[\s;]+/)
      .filter(Boolean);
    if (words[0] === `${PROOF_PREFIX}${token}`) return { subdomains: words.slice(1).includes(SUBDOMAINS_OPTION) };
  }
  return undefined;
}

interface Proved {
  method: VerifyMethod;
  answer: string;
  subdomains: boolean;
  addresses: string[];
}

export class TargetUseCases {
  constructor(
    private readonly deps: {
      store: TargetStore;
      policy: TargetPolicy;
      proofs: ProofReader;
      resolver: Resolver;
      settings: TargetSettings;
      now: () => Date;
      newTargetId: () => string;
      newAttemptId: () => string;
    },
  ) {}

  /** A new pending target; the operator's target policy applies as to a scan (no verification for what may never be scanned). */
  async create(orgId: string, text: string, actor?: ActorRecord): Promise<TargetRecord> {
    const parsed = parseTarget(text);
    await this.deps.policy.check(parsed);
    const t: TargetRecord = {
      _id: this.deps.newTargetId(),
      org_id: orgId,
      target: canonicalText(parsed),
      kind: kindOf(parsed),
      token: newToken(),
      created_at: this.deps.now(),
      ...(actor ? { created_by: actor } : {}),
      status: "pending",
      last_error: "",
      include_subdomains: false,
      proven_addresses: [],
      version: 0,
    };
    if (!(await this.deps.store.insert(t))) throw conflict(`Target ${t.target} exists already in your organization`);
    return t;
  }

  async get(orgId: string, id: string): Promise<TargetRecord> {
    const t = await this.deps.store.get(orgId, id);
    if (!t) throw notFound("Target");
    return t;
  }

  attempts(orgId: string, id: string, limit = 20): Promise<AttemptRecord[]> {
    return this.deps.store.attempts(orgId, id, limit);
  }

  list(orgId: string, filter: TargetFilter, page: PageRequest): Promise<Page<TargetRecord>> {
    return this.deps.store.list(orgId, filter, page);
  }

  async delete(orgId: string, id: string): Promise<void> {
    if (!(await this.deps.store.delete(orgId, id))) throw notFound("Target");
  }

  /** Checks the proof now with one method or each the target allows; records every attempt. */
  async verify(orgId: string, id: string, method: string, actor?: ActorRecord): Promise<TargetRecord> {
    const t = await this.get(orgId, id);
    const allowed = METHODS_OF[t.kind].filter((m): m is CheckMethod => (CHECK_METHODS as readonly string[]).includes(m));
    if (method && !allowed.includes(method as CheckMethod)) {
      throw validationError(
        "method",
        `A ${t.kind} target is verified by ${allowed.join(", ")}${t.kind === "domain" ? "" : " (or the operator's attestation)"}`,
      );
    }
    const methods = method ? [method as CheckMethod] : allowed;
    const errors: string[] = [];
    for (const m of methods) {
      const result = await this.attempt(t, m, "api", actor);
      if (result.ok) return this.markVerified(t, result.proved);
      errors.push(`${METHOD_WORDS[m]}: ${result.error}`);
    }
    return this.markFailed(t, errors.join("; "));
  }

  /** The operator vouches for an IP or range (admin CLI); recorded like any attempt. */
  async attest(orgId: string, id: string, reason: string, operator: string): Promise<TargetRecord> {
    const t = await this.get(orgId, id);
    if (t.kind === "domain")
      throw validationError("target", "An operator's attestation is for IP addresses and ranges; a domain proves itself (DNS TXT or HTTP file)");
    if (!reason.trim()) throw validationError("reason", "A reason is required");
    const actor = { user_id: "", api_key_id: "", display_name: operator || "operator" };
    await this.record(t, "attestation", "operator", actor, true, short(reason.trim()), "");
    return this.markVerified(t, { method: "attestation", answer: reason, subdomains: false, addresses: [] });
  }

  /** Re-checks verified targets whose time has come (the 30-day loop); a lost proof expires the target. */
  async recheckDue(limit = 50): Promise<{ checked: number; expired: number }> {
    let expired = 0;
    const due = await this.deps.store.dueForRecheck(this.deps.now(), limit);
    for (const t of due) if (!(await this.recheck(t, "recheck"))) expired++;
    return { checked: due.length, expired };
  }

  /** Runs the method that proved the target again; true when the proof still holds. */
  async recheck(t: TargetRecord, source: AttemptSource): Promise<boolean> {
    if (t.status !== "verified" || !t.method || t.method === "attestation") return true;
    const result = await this.attempt(t, t.method, source);
    if (result.ok) {
      await this.markVerified(t, result.proved, true);
      return true;
    }
    const now = this.deps.now();
    const to: TargetRecord = { ...t, status: "expired", expired_at: now, last_error: result.error, version: t.version + 1 };
    delete to.next_check_at;
    if (await this.deps.store.update(t, to, [{ type: "target.verification_expired", target: to }])) await this.deps.store.publish(t._id);
    return false;
  }

  private async attempt(t: TargetRecord, method: CheckMethod, source: AttemptSource, actor?: ActorRecord) {
    try {
      const proved = await this.prove(t, method);
      await this.record(t, method, source, actor, true, proved.answer, "");
      return { ok: true as const, proved };
    } catch (err) {
      // The reader's errors say what was not found or not reachable; they are the reason as it is.
      const error = (err as Error).message;
      const answer = err instanceof ProofFailed ? err.answer : "";
      await this.record(t, method, source, actor, false, answer, error);
      return { ok: false as const, error };
    }
  }

  private async prove(t: TargetRecord, method: CheckMethod): Promise<Proved> {
    const { proofs } = this.deps;
    if (method === "dns_txt") {
      const name = `${CHALLENGE_PREFIX}.${t.target}`;
      const records = await proofs.txt(name);
      const answer = records.map((r) => JSON.stringify(r)).join(", ") || "(no TXT record)";
      for (const r of records) {
        const p = proofIn(r, t.token);
        if (p) return { method, answer: short(answer), subdomains: p.subdomains, addresses: [] };
      }
      throw new ProofFailed(records.length ? `no TXT record at ${name} holds this target's token` : `no TXT record at ${name}`, short(answer));
    }
    const addresses = this.addressesOf(t);
    if (method === "http_file") {
      const hosts = t.kind === "domain" ? [t.target] : addresses;
      const seen: string[] = [];
      const proven: string[] = [];
      for (const host of hosts) {
        const served = await proofs.httpFile(host);
        for (const s of served) {
          seen.push(`${s.address}: ${JSON.stringify(s.body.slice(0, 80))}`);
          if (!proofIn(s.body, t.token)) throw new ProofFailed(`the file served by ${s.address} does not hold this target's token`, short(seen.join(", ")));
          proven.push(canonical(s.address));
        }
      }
      return { method, answer: short(seen.join(", ")), subdomains: false, addresses: t.kind === "domain" ? proven : [] };
    }
    // reverse_dns: every address names a host under a domain this organization has verified.
    const verified = (await this.deps.store.provedOf(t.org_id)).filter((x) => x.status === "verified" && x.kind === "domain");
    if (verified.length === 0) throw new ProofFailed("your organization has no verified domain for the reverse DNS names to be under", "");
    const seen: string[] = [];
    for (const a of addresses) {
      const names = (await proofs.reverse(a)).map((n) => n.replace(/\.$/, "").toLowerCase());
      seen.push(`${a}: ${names.join(" ") || "(no PTR)"}`);
      if (!names.some((n) => nameCoveredBy(n, verified) || verified.some((d) => n.endsWith(`.${d.target}`) || n === d.target))) {
        throw new ProofFailed(
          `the reverse DNS of ${a} (${names.join(", ") || "none"}) is not under a verified domain of your organization`,
          short(seen.join(", ")),
        );
      }
    }
    return { method, answer: short(seen.join(", ")), subdomains: false, addresses: [] };
  }

  private addressesOf(t: TargetRecord): string[] {
    const parsed = parseTarget(t.target);
    if (parsed.kind === "ip") return [canonical(t.target)];
    if (parsed.kind === "cidr") return addressesOf(parsed.address, parsed.prefix).map((a) => canonical(a.toString()));
    return [];
  }

  private async markVerified(t: TargetRecord, p: Proved, recheck = false): Promise<TargetRecord> {
    const now = this.deps.now();
    const to: TargetRecord = {
      ...t,
      status: "verified",
      method: p.method,
      verified_at: recheck && t.verified_at ? t.verified_at : now,
      checked_at: now,
      last_error: "",
      include_subdomains: p.subdomains,
      proven_addresses: p.addresses,
      version: t.version + 1,
    };
    delete to.expired_at;
    if (p.method === "attestation") delete to.next_check_at;
    else to.next_check_at = new Date(now.getTime() + this.deps.settings.recheckAfterMs);
    await this.save(t, to);
    return to;
  }

  private async markFailed(t: TargetRecord, error: string): Promise<TargetRecord> {
    // A verified target keeps its proof until the re-check finds it gone: a customer's failed
    // "check now" (a typo in a new record) must not stop their scans.
    const to: TargetRecord =
      t.status === "verified" ? { ...t, last_error: error, version: t.version + 1 } : { ...t, status: "failed", last_error: error, version: t.version + 1 };
    await this.save(t, to);
    return to;
  }

  private async save(from: TargetRecord, to: TargetRecord): Promise<void> {
    if (!(await this.deps.store.update(from, to, []))) {
      throw conflict("The target changed while it was being checked; ask again");
    }
  }

  private async record(
    t: TargetRecord,
    method: VerifyMethod,
    source: AttemptSource,
    actor: ActorRecord | undefined,
    ok: boolean,
    answer: string,
    error: string,
  ) {
    await this.deps.store.recordAttempt({
      _id: this.deps.newAttemptId(),
      org_id: t.org_id,
      target_id: t._id,
      method,
      at: this.deps.now(),
      ...(actor ? { actor } : {}),
      source,
      ok,
      answer,
      error,
    });
  }

  /**
   * The guard every scan and schedule passes after the target policy: every address (and a
   * name) covered by a verified target or in SCAN_VERIFIED_NETWORKS, else 403 TARGET_NOT_VERIFIED
   * with what to publish, or TARGET_VERIFICATION_EXPIRED when only an expired proof covered it.
   * A scheduled run first re-checks the proofs it relies on that are older than the re-check age.
   */
  async guard(orgId: string, target: ParsedTarget, opts: { scheduled: boolean }): Promise<void> {
    const { settings, resolver } = this.deps;
    let addresses: string[] = [];
    if (target.kind === "domain") {
      try {
        addresses = await resolver.resolve(target.name);
      } catch {
        addresses = [];
      }
      if (addresses.length === 0) throw validationError("target", `Target ${target.raw} is not allowed: the domain does not resolve`);
    }
    const passes = (c: { uncovered: string[]; nameCovered: boolean }) => c.uncovered.length === 0 && c.nameCovered;
    // The operator's networks need no database read (every lab and loopback scan).
    if (passes(coverageOf(target, addresses, settings.exemptNetworks, []))) return;

    let proved = await this.deps.store.provedOf(orgId);
    let cover = coverageOf(
      target,
      addresses,
      settings.exemptNetworks,
      proved.filter((t) => t.status === "verified"),
    );
    if (opts.scheduled && cover.usedTargets.length > 0) {
      const stale = cover.usedTargets
        .filter((t) => t.checked_at && this.deps.now().getTime() - t.checked_at.getTime() >= settings.recheckAfterMs)
        .slice(0, settings.maxRechecksPerRun);
      for (const t of stale) await this.recheck(t, "schedule");
      if (stale.length) {
        proved = await this.deps.store.provedOf(orgId);
        cover = coverageOf(
          target,
          addresses,
          settings.exemptNetworks,
          proved.filter((t) => t.status === "verified"),
        );
      }
    }
    if (passes(cover)) return;

    const withExpired = coverageOf(target, addresses, settings.exemptNetworks, proved);
    if (passes(withExpired)) {
      const gone = withExpired.usedTargets.filter((t) => t.status === "expired");
      const what = gone.map((t) => `${t.target} (${t.last_error || "proof no longer found"})`).join(", ");
      throw targetVerificationExpired(
        `The verification of ${what} expired: publish the proof again and ask for a check (POST /api/v1/targets/{target_id}/verify) before scanning ${target.raw}`,
      );
    }
    throw targetNotVerified(this.notVerifiedDetail(target, cover));
  }

  private notVerifiedDetail(target: ParsedTarget, cover: ReturnType<typeof coverageOf>): string {
    const parts: string[] = [`Target ${target.raw} is not verified for your organization.`];
    if (target.kind === "domain" && !cover.nameCovered) {
      parts.push(
        `Add it (POST /api/v1/targets) and publish the challenge it returns: a DNS TXT record at ${CHALLENGE_PREFIX}.${target.name} or the file ${WELL_KNOWN_PATH} on it.`,
      );
    }
    if (cover.uncovered.length > 0) {
      const which =
        target.kind === "cidr" ? `Addresses of the range not covered: ${listAddresses(cover.uncovered)}.` : `Not covered: ${listAddresses(cover.uncovered)}.`;
      parts.push(which);
      parts.push(
        target.kind === "domain"
          ? `Each address it resolves to must be proved: verify ${target.name} with the HTTP file (served from every address), or add the addresses as targets.`
          : `Add them as a target (POST /api/v1/targets) and prove them: reverse DNS under a verified domain, the file ${WELL_KNOWN_PATH} served on each address, or the operator's attestation.`,
      );
    }
    return parts.join(" ");
  }
}
