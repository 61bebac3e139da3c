import type { ActorRecord } from "./types.js";

/*
 * Targets an organization has proved it owns (issue 29). A target is stored once per
 * organization and text; its verification moves pending → verified | failed, verified → expired
 * when a re-check finds the proof gone, and back to verified whenever a check succeeds again.
 */

export const TARGET_KINDS = ["domain", "ip", "cidr"] as const;
export type TargetKind = (typeof TARGET_KINDS)[number];

export const VERIFICATION_STATUSES = ["pending", "verified", "expired", "failed"] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];

/** Methods a customer can ask for; `attestation` is the operator's (admin CLI). */
export const CHECK_METHODS = ["dns_txt", "http_file", "reverse_dns"] as const;
export type CheckMethod = (typeof CHECK_METHODS)[number];
export type VerifyMethod = CheckMethod | "attestation";

/** Methods per kind of target, in the order "any method" tries them. */
export const METHODS_OF: Record<TargetKind, readonly VerifyMethod[]> = {
  domain: ["dns_txt", "http_file"],
  ip: ["reverse_dns", "http_file", "attestation"],
  cidr: ["reverse_dns", "http_file", "attestation"],
};

/** Where each target's TXT record lives and what the published proofs say. */
export const CHALLENGE_PREFIX = "_vulnscan-challenge";
export const WELL_KNOWN_PATH = "/.well-known/vulnscan-verification.txt";
export const PROOF_PREFIX = "vulnscan-verification=";
/** The TXT record's option that extends a domain's proof to its subdomains. */
export const SUBDOMAINS_OPTION = "include-subdomains";

export interface TargetRecord {
  _id: string;
  org_id: string;
  /** Canonical text: a lowercased domain, an address, or a range as given. */
  target: string;
  kind: TargetKind;
  token: string;
  created_at: Date;
  created_by?: ActorRecord;
  status: VerificationStatus;
  method?: VerifyMethod;
  verified_at?: Date;
  /** Last successful check (first verification or re-check). */
  checked_at?: Date;
  /** When the re-check loop looks again; unset for attestations and unverified targets. */
  next_check_at?: Date;
  expired_at?: Date;
  last_error: string;
  include_subdomains: boolean;
  /** Addresses proved with a domain: each served the HTTP file. */
  proven_addresses: string[];
  /** Bumped by every state change; a write is guarded by it (two checks never interleave). */
  version: number;
}

export type AttemptSource = "api" | "recheck" | "schedule" | "operator";

export interface AttemptRecord {
  _id: string;
  org_id: string;
  target_id: string;
  method: VerifyMethod;
  at: Date;
  actor?: ActorRecord;
  source: AttemptSource;
  ok: boolean;
  answer: string;
  error: string;
}

export interface TargetFilter {
  status?: VerificationStatus;
  kind?: TargetKind;
}

/** Stored with the state change that caused it (outbox), published after. */
export interface TargetEvent {
  type: "target.verification_expired";
  target: TargetRecord;
}
