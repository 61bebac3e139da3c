import { parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import type { FindingDoc } from "../domain/types.js";
import { Chunker } from "./chunker.js";
import { listItemJson } from "./json.js";

/*
 * CSV (RFC 4180, CRLF rows) written by csv-stringify, with formula-injection escaping first: a
 * cell that a spreadsheet would run as a formula (starting with = + - @, tab or carriage return)
 * is prefixed with `'`, as OWASP recommends. Arrays are joined with "; ". The library quotes a
 * cell holding a separator or quote; `quoted_match` adds cells with a line break (it only looks
 * for the row delimiter itself, CRLF, otherwise).
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const OPTIONS = { record_delimiter: "windows", quoted_match: /[\r\n]/ } as const;

/** One cell's text before quoting: empty for null, arrays joined, formulas neutralised. */
export function csvText(value: unknown): string {
  const s = value === null || value === undefined ? "" : Array.isArray(value) ? value.join("; ") : String(value);
  return FORMULA_START.test(s) ? `'${s}` : s;
}

/** One cell as written (quoted when needed). */
export function csvCell(value: unknown): string {
  return csvRow([value]).slice(0, -2);
}

export function csvRow(values: unknown[]): string {
  return stringify([values.map(csvText)], OPTIONS);
}

/** Parses what csvRow writes (tests and tools); undoes quoting, not the formula prefix. */
export function parseCsv(text: string): string[][] {
  return parse(text, { relax_column_count: true }) as string[][];
}

/** CSV columns: the list item's fields, in order. */
export const CSV_COLUMNS = [
  "id",
  "title",
  "severity",
  "status",
  "cvss_score",
  "epss_score",
  "target",
  "affected_component",
  "tool",
  "template_id",
  "cve_ids",
  "cwe_ids",
  "scan_id",
  "detected_at",
  "frameworks",
  "confidence",
] as const;

export function csvValues(f: FindingDoc): unknown[] {
  const item = listItemJson(f) as Record<string, unknown>;
  return CSV_COLUMNS.map((c) => item[c]);
}

/** CSV: a header row, then one row per finding (the list item's fields). */
export async function* csvExport(rows: AsyncIterable<FindingDoc>): AsyncGenerator<Buffer> {
  const c = new Chunker();
  yield* c.push(csvRow([...CSV_COLUMNS]));
  for await (const f of rows) yield* c.push(csvRow(csvValues(f)));
  yield* c.flush();
}
