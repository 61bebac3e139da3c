import { api } from "../api/client.js";
import { ApiError } from "../api/errors.js";
import type { ScanDiff } from "../api/types.js";
import { Badge, ErrorNote, Loading, useLoad, when } from "../components/ui.js";

/*
 * The scan detail's "Compared with previous scan" tab (issue 28): GET /api/v1/scans/{id}/diff
 * against the previous completed scan of the target. "Fixed" is only what the newer scan checked
 * and no longer found; what it could not check is listed apart with the reason, never as fixed.
 */

type Bucket = ScanDiff["fixed"];
type BucketName = "new" | "regressed" | "fixed" | "not_covered" | "unchanged";

const BUCKETS: { name: BucketName; title: string; note: string }[] = [
  { name: "new", title: "New", note: "Found by this scan, not by the earlier one." },
  { name: "regressed", title: "Back again", note: "Had been resolved; this scan found them again." },
  { name: "fixed", title: "Fixed", note: "This scan ran the same check on the same component, got an answer, and no longer found them." },
  {
    name: "not_covered",
    title: "Not checked this time",
    note: "Found by the earlier scan; this scan could not check them, so nothing is known about them now.",
  },
  { name: "unchanged", title: "Still there", note: "Found by both scans." },
];

const REASONS: Record<string, string> = {
  host_down: "host did not answer",
  port_not_open: "port closed, filtered or not scanned",
  no_answer: "service accepted connections but said nothing",
  check_not_run: "check not run in this scan",
  no_coverage: "this scan recorded no coverage",
};

function BucketList({ bucket, name }: { bucket: Bucket; name: BucketName }) {
  if (bucket.count === 0) return <p className="muted small">None.</p>;
  return (
    <>
      <ul>
        {bucket.items.map((i) => (
          <li key={i.finding_id}>
            <Badge kind="severity" value={i.severity} /> <a href={`#/findings/${encodeURIComponent(i.finding_id)}`}>{i.title}</a>{" "}
            <span className="muted small">{i.affected_component}</span>
            {name === "not_covered" && i.reason && <span className="small"> · {REASONS[i.reason] ?? i.reason}</span>}
          </li>
        ))}
      </ul>
      {bucket.count > bucket.items.length && (
        <p className="muted small">
          {bucket.items.length} of {bucket.count} shown (most severe first).
        </p>
      )}
    </>
  );
}

export function ScanComparison({ id }: { id: string }) {
  const diff = useLoad(() => api<ScanDiff>(`/api/v1/scans/${encodeURIComponent(id)}/diff`), [id]);
  if (diff.error instanceof ApiError && diff.error.code === "INVALID_STATE")
    return <p className="muted">There is no earlier completed scan of this target to compare with.</p>;
  const d = diff.data;
  if (!d) return diff.error ? <ErrorNote error={diff.error} /> : <Loading what="comparison" />;
  return (
    <div>
      <p>
        Compared with the scan of{" "}
        <a href={`#/scans/${encodeURIComponent(d.against.id)}`}>
          {d.against.target} on {when(d.against.created_at)}
        </a>
        .
      </p>
      {!d.coverage_recorded && (
        <p className="notice">This scan recorded no coverage yet: nothing can be called fixed, and every finding it did not find is listed as not checked.</p>
      )}
      <dl className="facts" aria-label="Comparison counts">
        {BUCKETS.map((b) => (
          <div key={b.name}>
            <dt>{b.title}</dt>
            <dd>{d.counts[b.name]}</dd>
          </div>
        ))}
      </dl>
      {BUCKETS.map((b) => (
        <section key={b.name} aria-labelledby={`diff-${b.name}`}>
          <h3 id={`diff-${b.name}`}>
            {b.title} ({d.counts[b.name]})
          </h3>
          <p className="muted small">{b.note}</p>
          <BucketList bucket={d[b.name]} name={b.name} />
        </section>
      ))}
    </div>
  );
}
