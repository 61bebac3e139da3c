import type { ListQuery } from "./list.js";
import type { Clock, ExportWriters, FindingLists } from "./ports.js";

export type ExportFormat = "csv" | "json" | "pdf";
const CONTENT_TYPES: Record<ExportFormat, string> = { csv: "text/csv", json: "application/json", pdf: "application/pdf" };

/** Exports of a list in the spec's formats (the writers are src/export/'s). */
export class Exports {
  constructor(private readonly deps: { lists: FindingLists; writers: ExportWriters; now: Clock }) {}

  /** The export's metadata and its byte stream (read in batches, never all at once). */
  async export(orgId: string, format: ExportFormat, q: ListQuery) {
    const { lists, writers } = this.deps;
    const now = this.deps.now();
    const filename = `findings-${now.toISOString().slice(0, 10)}.${format}`;
    let chunks: AsyncGenerator<Buffer>;
    if (format === "csv") chunks = writers.csv(lists.stream(orgId, q, { details: false }));
    else if (format === "json") chunks = writers.json(lists.stream(orgId, q, { details: true }));
    else {
      const bySeverity = await lists.severityCounts(orgId, q.filter);
      const filters = Object.entries(q.filter)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => `${k}=${String(v)}`)
        .join(", ");
      chunks = writers.pdf(lists.stream(orgId, q, { details: false }), {
        total: Object.values(bySeverity).reduce((a, b) => a + b, 0),
        bySeverity,
        generatedAt: now,
        filters,
      });
    }
    return { contentType: CONTENT_TYPES[format], filename, chunks };
  }
}
