import { findingDetailJson, findingListItemJson } from "@vulnscan/kit";
import type { FindingDoc } from "../domain/types.js";
import { findingMsg } from "../rpc/mappers.js";
import { Chunker } from "./chunker.js";

/*
 * The spec's JSON shapes of a finding, for the exports: the document becomes the RPC message the
 * API answers with, and the kit's one mapping writes it, so an export and the API cannot differ.
 */
export const listItemJson = (f: FindingDoc) => findingListItemJson(findingMsg(f));
export const detailJson = (f: FindingDoc) => findingDetailJson(findingMsg(f));

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
