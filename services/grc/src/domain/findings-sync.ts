import type { Catalogue } from "@vulnscan/compliance-catalogue";
import type { Controls } from "./controls.js";
import type { ControlStore, LinkStore } from "./ports.js";
import { FAILING_SEVERITIES, OPEN_FINDING_STATUSES } from "./types.js";
import { controlIdOf } from "./view.js";

/** What grc needs of a vulnerability.found event. */
export interface FoundFinding {
  orgId: string;
  findingId: string;
  severity: string;
  frameworks: { name: string; controls: string[] }[];
}

export interface FindingStatusChange {
  orgId: string;
  findingId: string;
  to: string;
}

export const SYSTEM_USER = "system";

/**
 * Findings → controls. A critical or high finding maps to the controls its `frameworks` name (the
 * shared catalogue's CWE mapping, applied by the scanner), and keeps them failing while it is
 * open or in progress. Links are stored per finding (one writer per document), and every event
 * ends in Controls.settle, which publishes only real changes: a redelivered event is harmless.
 */
export class FindingsSync {
  constructor(private readonly deps: { catalogue: Catalogue; controls: Controls; controlStore: ControlStore; links: LinkStore; now: () => Date }) {}

  /** The organization's controls a finding's framework mapping names (references unknown to the catalogue are skipped). */
  controlsOf(orgId: string, frameworks: FoundFinding["frameworks"]): { id: string; key: string }[] {
    const out = new Map<string, { id: string; key: string }>();
    for (const fw of frameworks)
      for (const ref of fw.controls) {
        const c = this.deps.catalogue.get(fw.name, ref);
        if (c) out.set(c.key, { id: controlIdOf(orgId, c.key), key: c.key });
      }
    return [...out.values()];
  }

  async found(f: FoundFinding): Promise<void> {
    const controls = this.controlsOf(f.orgId, f.frameworks);
    if (!controls.length) return;
    const now = this.deps.now();
    const failing = (FAILING_SEVERITIES as readonly string[]).includes(f.severity);
    await this.deps.controls.settle(f.orgId, SYSTEM_USER, async () => {
      await this.deps.controlStore.markTested(f.orgId, controls, now);
      if (!failing) return;
      const existing = await this.deps.links.get(f.orgId, f.findingId);
      await this.deps.links.put({
        _id: `${f.orgId}:${f.findingId}`,
        org_id: f.orgId,
        finding_id: f.findingId,
        severity: f.severity,
        control_ids: controls.map((c) => c.id).sort(),
        // A redelivered found event must not reopen a finding resolved since.
        open: existing ? existing.open : true,
        updated_at: now,
      });
    });
  }

  async statusChanged(c: FindingStatusChange): Promise<void> {
    const link = await this.deps.links.get(c.orgId, c.findingId);
    if (!link) return; // not mapped, or not critical/high
    const open = (OPEN_FINDING_STATUSES as readonly string[]).includes(c.to);
    await this.deps.controls.settle(c.orgId, SYSTEM_USER, async () => {
      if (link.open !== open) await this.deps.links.put({ ...link, open, updated_at: this.deps.now() });
    });
  }
}
