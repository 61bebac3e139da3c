import { csvRow } from "../domain/csv.js";
import { CSV_COLUMNS, csvValues, detailJson } from "../domain/rest.js";
import type { FindingDoc } from "../domain/types.js";
import { Chunker } from "./chunker.js";

/** CSV: a header row, then one row per finding (the list item's fields). */
export async function* csvExport(rows: AsyncIterable<FindingDoc>): AsyncGenerator<Buffer> {
  const c = new Chunker();
  yield* c.push(csvRow([...CSV_COLUMNS]));
  for await (const f of rows) yield* c.push(csvRow(csvValues(f)));
  yield* c.flush();
}

/** JSON: an array of finding details, written one element at a time. */
export async function* jsonExport(rows: AsyncIterable<FindingDoc>): AsyncGenerator<Buffer> {
  const c = new Chunker();
  yield* c.push("[");
  let first = true;
  for await (const f of rows) {
    yield* c.push(`${first ? "\n" : ",\n"}${JSON.stringify(detailJson(f))}`);
    first = false;
  }
  yield* c.push(first ? "]\n" : "\n]\n");
  yield* c.flush();
}
