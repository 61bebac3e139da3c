import { createHash } from "node:crypto";
import { validationError } from "@vulnscan/kit";
import type { Anchor, Query, SortSpec } from "./query.js";

/*
 * Keyset pagination. A cursor names the last row of a page (its sort key and id) and the page
 * number that follows, bound to the query it came from (filter and sort, hashed), so the next
 * page is a range after that row — never a skip — and a cursor reused with other filters is
 * refused rather than silently answering a different list. Opaque to clients: base64url JSON.
 */
interface CursorState {
  v: 1;
  /** Hash of the query (filter + sort). */
  q: string;
  /** The page this cursor leads to. */
  p: number;
  /** Sort key value of the last row (dates are not sort keys, so JSON keeps it exact). */
  k: unknown;
  i: string;
}

const queryHash = (q: Query, sort: SortSpec) => createHash("sha256").update(JSON.stringify([q, sort])).digest("base64url").slice(0, 16);

export function encodeCursor(q: Query, sort: SortSpec, nextPage: number, last: Anchor): string {
  const state: CursorState = { v: 1, q: queryHash(q, sort), p: nextPage, k: last.key, i: last.id };
  return Buffer.from(JSON.stringify(state)).toString("base64url");
}

/** The anchor and page of a cursor for this query; VALIDATION_ERROR on `cursor` when it is not one. */
export function decodeCursor(cursor: string, q: Query, sort: SortSpec): { anchor: Anchor; page: number } {
  let state: CursorState;
  try {
    state = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as CursorState;
  } catch {
    throw validationError("cursor", "cursor is not a cursor this API issued");
  }
  if (state?.v !== 1 || typeof state.i !== "string" || !Number.isInteger(state.p) || state.p < 2 || !["number", "string"].includes(typeof state.k)) {
    throw validationError("cursor", "cursor is not a cursor this API issued");
  }
  if (state.q !== queryHash(q, sort)) throw validationError("cursor", "cursor belongs to a list with other filters or sort order");
  return { anchor: { key: state.k, id: state.i }, page: state.p };
}
