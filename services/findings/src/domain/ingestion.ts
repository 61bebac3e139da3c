import { newId } from "@vulnscan/kit/core";
import { applyDetection, applyDetections, newFinding } from "./changes.js";
import { foundEvents } from "./events.js";
import { fingerprint } from "./fingerprint.js";
import type { Clock, FindingRepository } from "./ports.js";
import type { DetectionFacts, FindingDoc } from "./types.js";

/** Detections become findings: de-duplicated by fingerprint, each known finding changed once per batch. */
export class Ingestion {
  constructor(private readonly deps: { findings: FindingRepository; now: Clock }) {}

  /** One detection (see ingestBatch). */
  async ingest(d: DetectionFacts): Promise<{ findingId: string; created: boolean }> {
    return (await this.ingestBatch([d]))[0]!;
  }

  /**
   * A batch of detections, in order. Fingerprints this replica has not seen are created in one
   * go (a fingerprint held already keeps its finding: the de-duplication, without reading
   * first); several detections of one new fingerprint fold into its new finding. Then each known
   * finding takes its detections in order as one change. A detection a finding has recorded
   * (`detection_ids`: a redelivery) changes nothing.
   */
  async ingestBatch(ds: DetectionFacts[]): Promise<{ findingId: string; created: boolean }[]> {
    const store = this.deps.findings;
    const fps = ds.map((d) => fingerprint(d));
    const holders = store.rememberedHolders(fps);
    const results: { findingId: string; created: boolean }[] = new Array(ds.length);

    const fresh = new Map<string, { doc: FindingDoc; idx: number[] }>();
    const known: number[] = [];
    for (const [i, d] of ds.entries()) {
      const fp = fps[i]!;
      if (holders.has(fp)) {
        known.push(i);
        continue;
      }
      const now = this.deps.now();
      const entry = fresh.get(fp);
      if (!entry) {
        fresh.set(fp, { doc: newFinding(d, fp, newId("finding", now.getTime()), now).doc, idx: [i] });
        continue;
      }
      const change = applyDetection(entry.doc, d, now);
      if (change) Object.assign(entry.doc, change.set);
      entry.idx.push(i);
    }
    // Announced as created, after the batch's other detections of it folded in.
    const outcomes = await store.create([...fresh.values()].map(({ doc }) => ({ doc, events: foundEvents(doc) })));
    for (const [fp, e] of fresh) {
      const { holder, created } = outcomes.get(fp)!;
      if (created) for (const [n, i] of e.idx.entries()) results[i] = { findingId: holder, created: n === 0 };
      else {
        // Held already (an earlier scan, a racing writer, or this batch's redelivery): these detections change it.
        holders.set(fp, holder);
        known.push(...e.idx);
      }
    }

    // Known findings: each organization's in one write, each finding's detections in order.
    known.sort((a, b) => a - b);
    const byOrg = new Map<string, Map<string, DetectionFacts[]>>();
    for (const i of known) {
      const d = ds[i]!;
      const id = holders.get(fps[i]!)!;
      results[i] = { findingId: id, created: false };
      const org = byOrg.get(d.org_id) ?? new Map<string, DetectionFacts[]>();
      byOrg.set(d.org_id, org.set(id, [...(org.get(id) ?? []), d]));
    }
    await Promise.all(
      [...byOrg].map(async ([orgId, byFinding]) => {
        const changed = await store.change(orgId, [...byFinding.keys()], (f) => applyDetections(f, byFinding.get(f._id)!, this.deps.now()));
        for (const res of changed.values()) if (res instanceof Error) throw res;
      }),
    );
    return results;
  }
}
