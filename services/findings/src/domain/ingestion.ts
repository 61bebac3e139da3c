import { newId } from "@vulnscan/kit";
import { applyDetection, newFinding } from "./changes.js";
import { fingerprint } from "./fingerprint.js";
import type { Clock, FindingCounts, FindingRepository, ProcessedDetectionLog } from "./ports.js";
import type { DetectionFacts, FindingDoc } from "./types.js";

/** Detections become findings: de-duplicated by fingerprint, changes serialised per finding. */
export class Ingestion {
  constructor(private readonly deps: { findings: FindingRepository; counts: FindingCounts; processed: ProcessedDetectionLog; now: Clock }) {}

  private now(): Date {
    return this.deps.now();
  }

  /** One detection (see ingestBatch). */
  async ingest(d: DetectionFacts): Promise<{ findingId: string; created: boolean }> {
    return (await this.ingestBatch([d]))[0]!;
  }

  /**
   * A batch of detections, in order: for fingerprints this replica has not seen, one bulk
   * fingerprint claim (the de-duplication, without reads) and one bulk insert of the findings
   * that won their claims (their events and rollup deltas follow); then the serialised update
   * path (FindingRepository.mutate) for known findings that change.
   * Redelivered detections change nothing: the creating detection finishes its creation
   * (idempotent steps), the last one applied is on the finding, others are marked in
   * processed_detections once applied. Detections of one new fingerprint in the same batch
   * fold into the one new finding.
   */
  async ingestBatch(ds: DetectionFacts[]): Promise<{ findingId: string; created: boolean }[]> {
    const { findings: store, processed } = this.deps;
    const fps = ds.map((d) => fingerprint(d));
    const holders = store.rememberedHolders(fps);
    const results: { findingId: string; created: boolean }[] = new Array(ds.length);
    const applied: string[] = [];

    // Fingerprints not known to exist: the first detection creates, later ones in the batch fold
    // into it. No read first: the fingerprint claim tells which exist (store.createMany).
    const fresh = new Map<string, { doc: FindingDoc; idx: number[] }>();
    const known: number[] = [];
    for (const [i, d] of ds.entries()) {
      const fp = fps[i]!;
      if (holders.has(fp)) {
        known.push(i);
        continue;
      }
      const now = this.now();
      const entry = fresh.get(fp);
      if (!entry) {
        fresh.set(fp, { doc: newFinding(d, fp, newId("finding", now.getTime()), now).doc, idx: [i] });
        continue;
      }
      const change = applyDetection(entry.doc, d, now);
      if (change) Object.assign(entry.doc, change.set);
      entry.idx.push(i);
    }
    const outcomes = await store.createMany([...fresh.values()].map((e) => e.doc));
    for (const [fp, e] of fresh) {
      const { holder, created } = outcomes.get(fp)!;
      if (created) {
        for (const [n, i] of e.idx.entries()) {
          results[i] = { findingId: holder, created: n === 0 };
          if (n > 0) applied.push(ds[i]!.detection_id);
        }
        continue;
      }
      // The fingerprint is held already (an earlier scan, a racing writer, or this batch's
      // redelivery): these detections update its finding.
      holders.set(fp, holder);
      known.push(...e.idx);
    }

    // Known findings: per finding in detection order, findings in parallel.
    known.sort((a, b) => a - b);
    const byFinding = new Map<string, number[]>();
    for (const i of known) {
      const id = holders.get(fps[i]!)!;
      byFinding.set(id, [...(byFinding.get(id) ?? []), i]);
    }
    const docs = await Promise.all([...byFinding.keys()].map((id) => store.get(ds[byFinding.get(id)![0]!]!.org_id, id)));
    const current = new Map(docs.filter((f): f is FindingDoc => f !== null).map((f) => [f._id, f]));
    const groups = [...byFinding];
    let next = 0;
    const worker = async () => {
      while (next < groups.length) {
        const [id, idx] = groups[next++]!;
        const f = current.get(id);
        for (const i of idx) {
          const d = ds[i]!;
          results[i] = { findingId: id, created: false };
          if (f?.first_detection_id === d.detection_id) {
            await store.finishCreations([f]); // the creating detection again: finish what a crash may have cut short
            continue;
          }
          if (f?.last_detection_id === d.detection_id || (await processed.seen(d.detection_id))) continue;
          await store.mutate(d.org_id, id, (doc) => applyDetection(doc, d, this.now()));
          applied.push(d.detection_id);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(16, groups.length) }, worker));
    await processed.recordMany(applied);
    // Folding is off the batch's path: readers add unfolded deltas themselves.
    for (const org of new Set(ds.map((d) => d.org_id))) this.deps.counts.foldSoon(org);
    return results;
  }
}
