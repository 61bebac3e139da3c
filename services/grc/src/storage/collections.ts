import { allowScan, mergeFieldTypes, outboxFieldTypes, outboxIndexes, type FieldTypes, type IndexSpec, type ScanAllowance } from "@vulnscan/kit";

/** Collections of the `grc` database. */
export const Collections = {
  /** What people changed on a control (status, owner, notes) and when it was last tested; none until then. */
  controls: "controls",
  findingLinks: "finding_links",
  evidence: "evidence",
  auditRequests: "audit_requests",
  /** Per organization: the statuses and scores last published, and the version the read cache checks. */
  state: "grc_state",
  /** Per organization, only the version: the one small read each cached request makes. */
  versions: "grc_versions",
  complianceScans: "compliance_scans",
  /** Per periodic job, the last period a replica took (storage/leases.ts). */
  jobs: "grc_jobs",
} as const;

/** GridFS bucket of the evidence files. */
export const EVIDENCE_BUCKET = "evidence_files";

export const outboxCollections = [Collections.state, Collections.evidence, Collections.auditRequests];

export const grcIndexes: IndexSpec[] = [
  { collection: Collections.controls, key: { org_id: 1 }, options: { name: "org" } },
  { collection: Collections.findingLinks, key: { org_id: 1, open: 1 }, options: { name: "org_open" } },
  // Ids sort by creation time: these serve "newest first", of the organization or of one control.
  { collection: Collections.evidence, key: { org_id: 1, _id: -1 }, options: { name: "org_newest" } },
  // control_ids is an array (a compliance scan's evidence names every control it tested).
  { collection: Collections.evidence, key: { org_id: 1, control_ids: 1, _id: -1 }, options: { name: "org_control_newest" }, arrays: true },
  { collection: Collections.evidence, key: { org_id: 1, status: 1 }, options: { name: "org_status" } },
  { collection: Collections.evidence, key: { status: 1, expiring_notified: 1, expires_at: 1 }, options: { name: "expiring" } },
  { collection: Collections.evidence, key: { status: 1, expires_at: 1 }, options: { name: "status_expiry" } },
  { collection: Collections.auditRequests, key: { org_id: 1, _id: -1 }, options: { name: "org_newest" } },
  { collection: Collections.auditRequests, key: { org_id: 1, status: 1, _id: -1 }, options: { name: "org_status_newest" } },
  ...outboxIndexes(Collections.state),
  ...outboxIndexes(Collections.evidence),
  ...outboxIndexes(Collections.auditRequests),
  // GridFS reads a file's chunks in order; the driver creates the same index on first upload.
  { collection: `${EVIDENCE_BUCKET}.chunks`, key: { files_id: 1, n: 1 }, options: { name: "files_id_1_n_1", unique: true } },
  { collection: `${EVIDENCE_BUCKET}.files`, key: { filename: 1, uploadDate: 1 }, options: { name: "filename_1_uploadDate_1" } },
];

/*
 * The type class of every field the queries and indexes above use (field-types.ts), as
 * storage/mongo.ts writes them (domain/types.ts): ids are strings (a finding link's is
 * `<org>:<finding>`), `expires_at` is a Date or null, control_ids an array of strings. The
 * GridFS driver writes its own documents: ObjectId file ids, an int chunk number `n`, a Date
 * `uploadDate`.
 */
export const grcFields: FieldTypes = mergeFieldTypes(
  {
    [Collections.controls]: { _id: "string", org_id: "string" },
    [Collections.findingLinks]: { _id: "string", org_id: "string", open: "bool" },
    [Collections.evidence]: {
      _id: "string",
      org_id: "string",
      control_ids: "string[]",
      status: "string",
      expiring_notified: "bool",
      expires_at: "date",
    },
    [Collections.auditRequests]: { _id: "string", org_id: "string", status: "string" },
    [Collections.state]: { _id: "string", version: "string" },
    [Collections.versions]: { _id: "string" },
    [Collections.complianceScans]: { _id: "string" },
    [Collections.jobs]: { _id: "string", period: "number" },
    [`${EVIDENCE_BUCKET}.chunks`]: { _id: "objectId", files_id: "objectId", n: "number" },
    [`${EVIDENCE_BUCKET}.files`]: { _id: "objectId", filename: "string", uploadDate: "date" },
  },
  ...outboxCollections.map((c) => outboxFieldTypes(c)),
);

export const grcScanAllowances: ScanAllowance[] = [
  allowScan(
    `${EVIDENCE_BUCKET}.files`,
    {},
    "the GridFS driver's one-document probe (findOne with no filter) before its first upload, to decide whether to create its indexes",
  ),
];
