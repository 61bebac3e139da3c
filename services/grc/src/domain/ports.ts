import type { AuditDoc, AuditStatus, ComplianceScanDoc, ControlOverride, EvidenceDoc, FindingLink, GrcEvent, PublishedState } from "./types.js";

/*
 * What the use cases need from storage and the outside world. Every write that other parts
 * care about takes its events: the adapter stores them with the state (the kit's outbox), so an
 * event is never lost nor published for a state that was not stored.
 */

export interface ControlStore {
  overrides(orgId: string): Promise<ControlOverride[]>;
  /** Creates the override on first change. */
  set(orgId: string, id: string, key: string, fields: Omit<Partial<ControlOverride>, "_id" | "org_id" | "key">): Promise<void>;
  markTested(orgId: string, controls: { id: string; key: string }[], at: Date): Promise<void>;
}

export interface LinkStore {
  openLinks(orgId: string): Promise<FindingLink[]>;
  get(orgId: string, findingId: string): Promise<FindingLink | null>;
  put(link: FindingLink): Promise<void>;
}

export interface EvidenceStore {
  /** False when an item with that id exists (a redelivered scan). */
  insert(doc: EvidenceDoc, events: GrcEvent[]): Promise<boolean>;
  get(orgId: string, id: string): Promise<EvidenceDoc | null>;
  list(orgId: string, controlId: string | undefined, page: number, perPage: number): Promise<{ items: EvidenceDoc[]; total: number }>;
  /** Clean items per control id (an item counts for each control it supports). */
  cleanCounts(orgId: string): Promise<Map<string, number>>;
  /** Records a pending item's malware verdict with its events; false when it was no longer pending. */
  recordVerdict(id: string, set: Partial<EvidenceDoc>, events: GrcEvent[]): Promise<boolean>;
  /** Marks an item announced, with its evidence.expiring; false when it was announced already. */
  announceExpiry(id: string, event: GrcEvent): Promise<boolean>;
  /** A clean item expired: it stops counting. */
  expire(id: string): Promise<void>;
  delete(orgId: string, id: string): Promise<boolean>;
  pendingScan(limit: number): Promise<EvidenceDoc[]>;
  /** Clean items expiring at or before `at` that were not yet announced. */
  expiringUnannounced(at: Date, limit: number): Promise<EvidenceDoc[]>;
  /** Clean items whose expiry is at or before `now`. */
  expiredClean(now: Date, limit: number): Promise<EvidenceDoc[]>;
}

/** Evidence files (GridFS). */
export interface FileStore {
  put(bytes: Uint8Array, meta: { orgId: string; evidenceId: string; name: string; contentType: string }): Promise<string>;
  get(fileId: string): Promise<Uint8Array | null>;
  delete(fileId: string): Promise<void>;
}

export interface AuditStore {
  insert(doc: AuditDoc, events: GrcEvent[]): Promise<void>;
  get(orgId: string, id: string): Promise<AuditDoc | null>;
  list(orgId: string, status: AuditStatus | undefined, page: number, perPage: number): Promise<{ items: AuditDoc[]; total: number }>;
  update(orgId: string, id: string, set: Partial<AuditDoc>): Promise<void>;
}

/** The statuses and scores last published per organization, and a version that changes with every change of its controls. */
export interface StateStore {
  version(orgId: string): Promise<string | undefined>;
  get(orgId: string): Promise<PublishedState | null>;
  /**
   * Stores the state with the events it publishes, if the stored one is still at `previous`
   * (undefined: none yet); false when another replica saved first.
   */
  save(orgId: string, state: PublishedState, previous: string | undefined, events: GrcEvent[]): Promise<boolean>;
}

export interface ScanStore {
  remember(doc: ComplianceScanDoc): Promise<void>;
  get(scanId: string): Promise<ComplianceScanDoc | null>;
}

export class MalwareScannerUnavailable extends Error {}

/** A malware scanner (clamd); throws MalwareScannerUnavailable when it cannot answer. */
export interface MalwareScanner {
  scan(bytes: Uint8Array): Promise<{ threat: string | null }>;
}
