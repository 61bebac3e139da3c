import { createHash } from "node:crypto";
import { invalidState, newId, validationError } from "@vulnscan/kit/core";
import type { Controls } from "./controls.js";
import { MalwareScannerUnavailable, type EvidenceStore, type FileStore, type MalwareScanner } from "./ports.js";
import type { EvidenceDoc, GrcEvent } from "./types.js";
import { found } from "./view.js";

/** Largest evidence file (the gateway caps uploads at the same size). */
export const MAX_EVIDENCE_BYTES = 10 * 1024 * 1024;
/** evidence.expiring is emitted this many days before expiry (once per item). */
export const EXPIRY_NOTICE_DAYS = 30;
const DAY_MS = 24 * 3600_000;
const BATCH = 200;

export interface UploadInput {
  orgId: string;
  controlId: string;
  name: string;
  title: string;
  description: string;
  contentType: string;
  file: Uint8Array;
  expiresAt?: Date;
  observedFrom?: Date;
  observedTo?: Date;
  uploadedBy: string;
}

export interface EvidenceDeps {
  controls: Controls;
  evidence: EvidenceStore;
  files: FileStore;
  malware: MalwareScanner;
  now: () => Date;
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
/** Path parts and control characters never reach a stored name (it is echoed in Content-Disposition). */
const baseName = (name: string) =>
  (name.split(/[\\/]/).pop() ?? "")
    .replace(/\p{Cc}/gu, "")
    .trim()
    .slice(0, 255);

/** The status a malware scan verdict gives an item, with its event. */
function verdict(d: EvidenceDoc, threat: string | null, at: Date): { set: Partial<EvidenceDoc>; events: GrcEvent[] } {
  if (threat) return { set: { status: "quarantined", threat }, events: [{ type: "quarantine.threat_detected", evidence: d, threat, detectedAt: at }] };
  return { set: { status: "clean" }, events: [{ type: "evidence.uploaded", evidence: { ...d, status: "clean" } }] };
}

/**
 * Evidence files: stored with their SHA-256, checked for malware before they count or can be
 * downloaded. An infected file is quarantined (kept, never served) with quarantine.threat_detected;
 * while the scanner is unreachable a file waits as pending_scan and the rescan job retries it.
 */
export class Evidence {
  constructor(private readonly deps: EvidenceDeps) {}

  async upload(input: UploadInput): Promise<EvidenceDoc> {
    const control = await this.deps.controls.get(input.orgId, input.controlId);
    if (input.file.length === 0) throw validationError("file", "file is empty");
    if (input.file.length > MAX_EVIDENCE_BYTES) throw validationError("file", `file is larger than ${MAX_EVIDENCE_BYTES} bytes`);
    const name = baseName(input.name);
    if (!name) throw validationError("file", "file name is required");
    if (input.title.length > 200) throw validationError("title", "title is longer than 200 characters");
    if (input.description.length > 10_000) throw validationError("description", "description is longer than 10000 characters");
    if (input.observedFrom && input.observedTo && input.observedFrom > input.observedTo)
      throw validationError("observed_to", "observed_to is before observed_from");
    const now = this.deps.now();
    if (input.expiresAt && input.expiresAt <= now) throw validationError("expires_at", "expires_at must be in the future");
    const id = newId("evidence", now.getTime());
    const fileId = await this.deps.files.put(input.file, { orgId: input.orgId, evidenceId: id, name, contentType: input.contentType });
    const doc: EvidenceDoc = {
      _id: id,
      org_id: input.orgId,
      control_id: control.id,
      control_ids: [control.id],
      name,
      title: input.title.trim() || name,
      description: input.description,
      content_type: input.contentType.slice(0, 255) || "application/octet-stream",
      size_bytes: input.file.length,
      sha256: sha256(input.file),
      status: "pending_scan",
      threat: "",
      source: "upload",
      scan_id: "",
      uploaded_by: input.uploadedBy,
      uploaded_at: now,
      expires_at: input.expiresAt ?? null,
      observed_from: input.observedFrom ?? null,
      observed_to: input.observedTo ?? null,
      expiring_notified: false,
      file_id: fileId,
    };
    const threat = await this.scan(input.file);
    if (threat === undefined) {
      await this.deps.evidence.insert(doc, []);
      return doc;
    }
    const v = verdict(doc, threat, now);
    const stored = { ...doc, ...v.set };
    await this.deps.controls.settle(input.orgId, input.uploadedBy, () => this.deps.evidence.insert(stored, v.events));
    return stored;
  }

  /** The verdict, or undefined when the scanner cannot answer now. */
  private async scan(bytes: Uint8Array): Promise<string | null | undefined> {
    try {
      return (await this.deps.malware.scan(bytes)).threat;
    } catch (err) {
      if (err instanceof MalwareScannerUnavailable) return undefined;
      throw err;
    }
  }

  /** Scan-generated evidence (a compliance scan's report): our own bytes, so no malware check. */
  async fromScan(input: {
    id: string;
    orgId: string;
    scanId: string;
    /** `retest` for a verified fix (scanId is then the retest id). */
    source?: "scan" | "retest";
    controlIds: string[];
    name: string;
    title: string;
    report: Uint8Array;
    at: Date;
  }) {
    if (await this.deps.evidence.get(input.orgId, input.id)) return false;
    const fileId = await this.deps.files.put(input.report, { orgId: input.orgId, evidenceId: input.id, name: input.name, contentType: "application/json" });
    const doc: EvidenceDoc = {
      _id: input.id,
      org_id: input.orgId,
      control_id: input.controlIds[0] ?? "",
      control_ids: input.controlIds,
      name: input.name,
      title: input.title,
      description: "",
      content_type: "application/json",
      size_bytes: input.report.length,
      sha256: sha256(input.report),
      status: "clean",
      threat: "",
      source: input.source ?? "scan",
      scan_id: input.scanId,
      uploaded_by: "system",
      uploaded_at: input.at,
      expires_at: null,
      observed_from: input.at,
      observed_to: input.at,
      expiring_notified: false,
      file_id: fileId,
    };
    let inserted = false;
    await this.deps.controls.settle(input.orgId, "system", async () => {
      inserted = await this.deps.evidence.insert(doc, [{ type: "evidence.uploaded", evidence: doc }]);
      if (!inserted) await this.deps.files.delete(fileId); // a concurrent redelivery won
    });
    return inserted;
  }

  get = async (orgId: string, id: string): Promise<EvidenceDoc> => found(await this.deps.evidence.get(orgId, id), "Evidence");

  async list(orgId: string, controlId: string | undefined, page: number, perPage: number) {
    if (controlId !== undefined) await this.deps.controls.get(orgId, controlId);
    const res = await this.deps.evidence.list(orgId, controlId, page, perPage);
    return { ...res, page, perPage };
  }

  /** Only clean (or expired) files are ever served: quarantined and unscanned ones are refused. */
  async download(orgId: string, id: string): Promise<{ doc: EvidenceDoc; content: Uint8Array }> {
    const doc = await this.get(orgId, id);
    if (doc.status === "quarantined") throw invalidState("Evidence is quarantined: malware was detected in it");
    if (doc.status === "pending_scan") throw invalidState("Evidence is waiting for its malware scan");
    return { doc, content: found(await this.deps.files.get(doc.file_id), "Evidence file") };
  }

  async delete(orgId: string, id: string, user: string): Promise<void> {
    const doc = await this.get(orgId, id);
    await this.deps.controls.settle(orgId, user, async () => {
      if (await this.deps.evidence.delete(orgId, id)) await this.deps.files.delete(doc.file_id);
    });
  }

  /**
   * Retries the malware scan of items held while the scanner was down. The verdict is recorded
   * only on an item still pending, so two replicas rescanning it announce it once.
   */
  async rescanPending(): Promise<number> {
    let n = 0;
    for (const doc of await this.deps.evidence.pendingScan(BATCH)) {
      const content = await this.deps.files.get(doc.file_id);
      if (!content) continue;
      const threat = await this.scan(content);
      if (threat === undefined) break; // still down: try again next pass
      const v = verdict(doc, threat, this.deps.now());
      await this.deps.controls.settle(doc.org_id, "system", async () => {
        if (await this.deps.evidence.recordVerdict(doc._id, v.set, v.events)) n++;
      });
    }
    return n;
  }

  /**
   * The daily pass: evidence.expiring once per item EXPIRY_NOTICE_DAYS before expiry (recorded
   * with the item's mark, which the write requires unset, so two replicas announce it once), and
   * expired items stop counting.
   */
  async expiryPass(): Promise<{ announced: number; expired: number }> {
    const now = this.deps.now();
    let announced = 0;
    for (const doc of await this.deps.evidence.expiringUnannounced(new Date(now.getTime() + EXPIRY_NOTICE_DAYS * DAY_MS), BATCH)) {
      const daysRemaining = Math.max(0, Math.floor(((doc.expires_at as Date).getTime() - now.getTime()) / DAY_MS));
      if (await this.deps.evidence.announceExpiry(doc._id, { type: "evidence.expiring", evidence: doc, daysRemaining })) announced++;
    }
    let expired = 0;
    for (const doc of await this.deps.evidence.expiredClean(now, BATCH)) {
      await this.deps.controls.settle(doc.org_id, "system", () => this.deps.evidence.expire(doc._id));
      expired++;
    }
    return { announced, expired };
  }
}
