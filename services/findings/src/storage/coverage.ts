import type { FieldTypes, IndexSpec } from "@vulnscan/kit";
import type { Collection, Db } from "mongodb";
import type { CoverageDoc, CoverageStore, DiffFinding } from "../domain/coverage.js";
import type { StoredFinding } from "./finding-store.js";
import { FINDINGS } from "./indexes.js";

/** One document per scan, attempt and host (domain/coverage.ts), kept as long as the scans. */
export const SCAN_COVERAGE = "scan_coverage";

export const coverageIndexes: IndexSpec[] = [
  // Every record of one scan (the comparison's coverage): one equality range.
  { collection: SCAN_COVERAGE, key: { org_id: 1, scan_id: 1 }, options: { name: "org_scan" } },
  // Auto-resolution: the open and in-progress findings of one host.
  { collection: FINDINGS, key: { org_id: 1, target: 1, status: 1 }, options: { name: "org_target_status" } },
];

export const coverageFields: FieldTypes = {
  [SCAN_COVERAGE]: { _id: "string", org_id: "string", scan_id: "string" },
};

/** What a comparison reads of a finding: no texts, evidence, comments or history. */
const DIFF_PROJECTION = {
  _id: 1,
  title: 1,
  severity: 1,
  severity_rank: 1,
  status: 1,
  target: 1,
  affected_component: 1,
  template_id: 1,
  tool: 1,
  scan_ids: 1,
  regressed_in: 1,
} as const;

export class MongoCoverageStore implements CoverageStore {
  private readonly coll: Collection<CoverageDoc>;
  private readonly findings: Collection<StoredFinding>;
  constructor(db: Db) {
    this.coll = db.collection<CoverageDoc>(SCAN_COVERAGE);
    this.findings = db.collection<StoredFinding>(FINDINGS);
  }

  async put(doc: CoverageDoc): Promise<void> {
    await this.coll.replaceOne({ _id: doc._id }, doc, { upsert: true });
  }

  ofScan(orgId: string, scanId: string): Promise<CoverageDoc[]> {
    return this.coll.find({ org_id: orgId, scan_id: scanId }).toArray();
  }

  // The scan's findings through the scan list's own index (org_scan: org_id, scan_ids).
  async scanFindings(orgId: string, scanId: string): Promise<DiffFinding[]> {
    return (await this.findings.find({ org_id: orgId, scan_ids: scanId }, { projection: DIFF_PROJECTION }).toArray()) as unknown as DiffFinding[];
  }

  async activeOnTarget(orgId: string, target: string): Promise<string[]> {
    const rows = await this.findings.find({ org_id: orgId, target, status: { $in: ["open", "in_progress"] } }, { projection: { _id: 1 } }).toArray();
    return rows.map((r) => r._id);
  }
}
