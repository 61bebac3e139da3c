import { createHash } from "node:crypto";
import { validationError } from "./domain-errors.js";

/*
 * Keyset pagination, one codec for every list. A cursor names the last row of a page (its sort
 * key and id) and the page number that follows, bound to the list it came from (a hash of the
 * caller's JSON-able description of it: organization, filters, sort), so the next page is a range
 * after that row — never a skip — and a cursor reused with other filters, another sort or another
 * organization is refused rather than silently answering a different list. Opaque to clients:
 * base64url JSON. Not signed: a client can forge an anchor, but the list it reads is always its
 * own query, so a forged cursor moves only within the caller's own rows.
 */

/** The position of one row in a list's order: the value of its sort key and its id. */
export interface CursorAnchor {
  /** A Date survives exactly (as its epoch milliseconds, the precision BSON stores). */
  key: string | number | Date;
  id: string;
}

interface CursorState {
  v: 1;
  /** Hash of the list description. */
  q: string;
  /** The page this cursor leads to. */
  p: number;
  /** Sort key value of the last row; epoch milliseconds when `d` is set. */
  k: string | number;
  /** 1 when the key is a Date. */
  d?: 1;
  i: string;
}

const NOT_OURS = "cursor is not a cursor this API issued";

const listHash = (list: unknown) => createHash("sha256").update(JSON.stringify(list)).digest("base64url").slice(0, 16);

/** The cursor of page `nextPage` of `list`, continuing after `last`. */
export function encodeCursor(list: unknown, nextPage: number, last: CursorAnchor): string {
  const isDate = last.key instanceof Date;
  const key = last.key instanceof Date ? last.key.getTime() : last.key;
  if (typeof key === "number" && !Number.isFinite(key)) throw new Error("a cursor key must be a finite number, a string or a valid Date");
  const state: CursorState = { v: 1, q: listHash(list), p: nextPage, k: key, ...(isDate ? { d: 1 as const } : {}), i: last.id };
  return Buffer.from(JSON.stringify(state)).toString("base64url");
}

/** The anchor and page of a cursor for this list; VALIDATION_ERROR on `cursor` when it is not one. */
export function decodeCursor(cursor: string, list: unknown): { anchor: CursorAnchor; page: number } {
  let state: CursorState;
  try {
    state = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as CursorState;
  } catch {
    throw validationError("cursor", NOT_OURS);
  }
  const keyOk = state?.d === undefined ? ["number", "string"].includes(typeof state?.k) : state.d === 1 && Number.isSafeInteger(state.k);
  if (state?.v !== 1 || typeof state.i !== "string" || !Number.isInteger(state.p) || state.p < 2 || !keyOk) {
    throw validationError("cursor", NOT_OURS);
  }
  if (state.q !== listHash(list)) throw validationError("cursor", "cursor belongs to a list with other filters or sort order");
  return { anchor: { key: state.d === 1 ? new Date(state.k as number) : state.k, id: state.i }, page: state.p };
}
