// In-memory adapters for unit tests only: the service always runs on Mongo.
import type { EnvelopeInit } from "@vulnscan/kit";
import type { AuditStore, ControlStore, EvidenceStore, FileStore, LinkStore, MalwareScanner, ScanStore, StateStore } from "../domain/ports.js";
import { MalwareScannerUnavailable } from "../domain/ports.js";
import type { AuditDoc, ComplianceScanDoc, ControlOverride, EvidenceDoc, FindingLink, GrcEvent, PublishedState } from "../domain/types.js";
import { envelopeOf } from "../events/envelopes.js";

const newestFirst = <T extends { _id: string }>(a: T, b: T) => b._id.localeCompare(a._id);
const page = <T>(items: T[], p: number, per: number) => ({ items: items.slice((p - 1) * per, p * per), total: items.length });

/** Every adapter on plain maps; `events` collects what the outbox would publish, in order, as it travels. */
export class MemoryGrcStores {
  readonly events: EnvelopeInit[] = [];
  private publish(events: GrcEvent[]) {
    this.events.push(...events.map(envelopeOf));
  }
  readonly overrides = new Map<string, ControlOverride>();
  readonly linkDocs = new Map<string, FindingLink>();
  readonly evidenceDocs = new Map<string, EvidenceDoc>();
  readonly fileBytes = new Map<string, Uint8Array>();
  readonly auditDocs = new Map<string, AuditDoc>();
  readonly states = new Map<string, PublishedState>();
  readonly scanDocs = new Map<string, ComplianceScanDoc>();

  readonly controls: ControlStore = {
    overrides: async (orgId) => [...this.overrides.values()].filter((o) => o.org_id === orgId),
    set: async (orgId, id, key, fields) => {
      this.overrides.set(id, { ...(this.overrides.get(id) ?? { _id: id, org_id: orgId, key }), ...fields });
    },
    markTested: async (orgId, controls, at) => {
      for (const c of controls) await this.controls.set(orgId, c.id, c.key, { last_tested_at: at });
    },
  };

  readonly links: LinkStore = {
    openLinks: async (orgId) => [...this.linkDocs.values()].filter((l) => l.org_id === orgId && l.open),
    get: async (orgId, findingId) => this.linkDocs.get(`${orgId}:${findingId}`) ?? null,
    put: async (link) => void this.linkDocs.set(link._id, { ...link }),
  };

  readonly evidence: EvidenceStore = {
    insert: async (doc, events) => {
      if (this.evidenceDocs.has(doc._id)) return false;
      this.evidenceDocs.set(doc._id, { ...doc });
      this.publish(events);
      return true;
    },
    get: async (orgId, id) => {
      const d = this.evidenceDocs.get(id);
      return d && d.org_id === orgId ? { ...d } : null;
    },
    list: async (orgId, controlId, p, per) =>
      page(
        [...this.evidenceDocs.values()].filter((d) => d.org_id === orgId && (controlId === undefined || d.control_ids.includes(controlId))).sort(newestFirst),
        p,
        per,
      ),
    cleanCounts: async (orgId) => {
      const counts = new Map<string, number>();
      for (const d of this.evidenceDocs.values())
        if (d.org_id === orgId && d.status === "clean") for (const c of d.control_ids) counts.set(c, (counts.get(c) ?? 0) + 1);
      return counts;
    },
    recordVerdict: async (id, set, events) => this.updateEvidence(id, (d) => d.status === "pending_scan", set, events),
    announceExpiry: async (id, event) => this.updateEvidence(id, (d) => !d.expiring_notified, { expiring_notified: true }, [event]),
    expire: async (id) => void this.updateEvidence(id, (d) => d.status === "clean", { status: "expired" }, []),
    delete: async (orgId, id) => {
      const d = this.evidenceDocs.get(id);
      if (!d || d.org_id !== orgId) return false;
      return this.evidenceDocs.delete(id);
    },
    pendingScan: async (limit) => [...this.evidenceDocs.values()].filter((d) => d.status === "pending_scan").slice(0, limit),
    expiringUnannounced: async (at, limit) =>
      [...this.evidenceDocs.values()].filter((d) => d.status === "clean" && !d.expiring_notified && d.expires_at && d.expires_at <= at).slice(0, limit),
    expiredClean: async (now, limit) =>
      [...this.evidenceDocs.values()].filter((d) => d.status === "clean" && d.expires_at && d.expires_at <= now).slice(0, limit),
  };

  readonly files: FileStore = {
    put: async (bytes, meta) => {
      const id = `file_${meta.evidenceId}_${this.fileBytes.size}`;
      this.fileBytes.set(id, new Uint8Array(bytes));
      return id;
    },
    get: async (id) => this.fileBytes.get(id) ?? null,
    delete: async (id) => void this.fileBytes.delete(id),
  };

  readonly audits: AuditStore = {
    insert: async (doc, events) => {
      this.auditDocs.set(doc._id, { ...doc });
      this.publish(events);
    },
    get: async (orgId, id) => {
      const d = this.auditDocs.get(id);
      return d && d.org_id === orgId ? { ...d } : null;
    },
    list: async (orgId, status, p, per) =>
      page([...this.auditDocs.values()].filter((d) => d.org_id === orgId && (status === undefined || d.status === status)).sort(newestFirst), p, per),
    update: async (orgId, id, set) => {
      const d = this.auditDocs.get(id);
      if (d && d.org_id === orgId) this.auditDocs.set(id, { ...d, ...set });
    },
  };

  readonly state: StateStore = {
    version: async (orgId) => this.states.get(orgId)?.version,
    get: async (orgId) => this.states.get(orgId) ?? null,
    save: async (orgId, state, previous, events) => {
      if (this.states.get(orgId)?.version !== previous) return false;
      this.states.set(orgId, state);
      this.publish(events);
      return true;
    },
  };

  readonly scans: ScanStore = {
    remember: async (doc) => void this.scanDocs.set(doc._id, doc),
    get: async (id) => this.scanDocs.get(id) ?? null,
  };

  private updateEvidence(id: string, guard: (d: EvidenceDoc) => boolean, set: Partial<EvidenceDoc>, events: GrcEvent[]): boolean {
    const d = this.evidenceDocs.get(id);
    if (!d || !guard(d)) return false;
    this.evidenceDocs.set(id, { ...d, ...set });
    this.publish(events);
    return true;
  }
}

/** EICAR's test string marks a file infected; `down` makes it unreachable. */
export class FakeMalwareScanner implements MalwareScanner {
  down = false;
  async scan(bytes: Uint8Array) {
    if (this.down) throw new MalwareScannerUnavailable("scanner down");
    return { threat: Buffer.from(bytes).includes("EICAR-STANDARD-ANTIVIRUS-TEST-FILE") ? "Eicar-Test-Signature" : null };
  }
}
