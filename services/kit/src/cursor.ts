import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { validationError } from "./domain-errors.js";

/*
 * Keyset pagination, one codec for every list. A cursor names the last row of a page (its sort
 * key and id) and the page number that follows, bound to the list it came from (a hash of the
 * caller's JSON-able description of it: organization, filters, sort), so the next page is a range
 * after that row — never a skip — and a cursor reused with other filters, another sort or another
 * organization is refused rather than silently answering a different list. Opaque to clients:
 * base64url JSON, then "." and an HMAC-SHA256 of it (128 bits) under the service's cursor key.
 * The list a cursor reads is always the caller's own query, so a forged anchor could only move
 * within the caller's own rows; the signature is there so that no value a client makes up (a page
 * of 2^31, a key of another type) reaches a query or a response: only what we issued is read.
 * The page is bounded too (CURSOR_MAX_PAGE, the gateway's page cap): past it no cursor is issued.
 */

/** The deepest page a cursor leads to; the gateway's `page` cap (gateway/src/rest.ts MAX_PAGE). */
export const CURSOR_MAX_PAGE = 100_000;

/**
 * Signing keys: the first signs, every one verifies (rotation: put the new key first and keep the
 * old one second until the cursors it signed are no longer in use). A service sets them at start
 * (runService: CURSOR_KEYS, else derivedCursorKey); until then, a random key of this process
 * (unit tests).
 */
let cursorKeys: Buffer[] = [randomBytes(32)];

/** Sets the cursor keys, newest first; each at least 32 bytes of secret (see CURSOR_KEYS). */
export function setCursorKeys(keys: readonly string[]): void {
  if (keys.length === 0 || keys.some((k) => Buffer.byteLength(k) < 32)) throw new Error("cursor keys must be at least 32 characters each");
  cursorKeys = keys.map((k) => Buffer.from(k));
}

/**
 * The key when CURSOR_KEYS is unset: derived from what every replica of a service shares and only
 * its operators know (the database URL, with its credentials, and name), so the replicas behind
 * one load balancer accept each other's cursors without configuration. Without credentials in
 * the URL it is guessable: set CURSOR_KEYS in production. Even then a forged cursor reads only the
 * caller's own list within the page bounds, as an unsigned one did.
 */
export const derivedCursorKey = (...shared: string[]) =>
  createHash("sha256")
    .update(["vulnscan-cursor-v1", ...shared].join("\0"))
    .digest("hex");

const mac = (key: Buffer, payload: string) => createHmac("sha256", key).update(payload).digest().subarray(0, 16);

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
  if (!Number.isSafeInteger(nextPage) || nextPage < 2) throw new Error("a cursor leads to page 2 or later");
  if (nextPage > CURSOR_MAX_PAGE) return "";
  const state: CursorState = { v: 1, q: listHash(list), p: nextPage, k: key, ...(isDate ? { d: 1 as const } : {}), i: last.id };
  const payload = Buffer.from(JSON.stringify(state)).toString("base64url");
  return `${payload}.${mac(cursorKeys[0]!, payload).toString("base64url")}`;
}

/** The payload of a cursor signed by one of our keys; undefined for anything else. */
function verified(cursor: string): string | undefined {
  const dot = cursor.indexOf(".");
  if (dot < 1 || dot !== cursor.lastIndexOf(".")) return undefined;
  const payload = cursor.slice(0, dot);
  const sig = Buffer.from(cursor.slice(dot + 1), "base64url");
  if (sig.length !== 16) return undefined;
  // Every key is tried (no early exit) so the time taken does not say which one matched.
  let ok = false;
  for (const key of cursorKeys) ok = timingSafeEqual(mac(key, payload), sig) || ok;
  return ok ? payload : undefined;
}

/** The anchor and page of a cursor for this list; VALIDATION_ERROR on `cursor` when it is not one. */
export function decodeCursor(cursor: string, list: unknown): { anchor: CursorAnchor; page: number } {
  const payload = verified(cursor);
  if (payload === undefined) throw validationError("cursor", NOT_OURS);
  let state: CursorState;
  try {
    state = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as CursorState;
  } catch {
    throw validationError("cursor", NOT_OURS);
  }
  const keyOk = state?.d === undefined ? typeof state?.k === "string" || Number.isFinite(state?.k) : state.d === 1 && Number.isSafeInteger(state.k);
  if (state?.v !== 1 || typeof state.i !== "string" || !Number.isSafeInteger(state.p) || state.p < 2 || state.p > CURSOR_MAX_PAGE || !keyOk) {
    throw validationError("cursor", NOT_OURS);
  }
  if (state.q !== listHash(list)) throw validationError("cursor", "cursor belongs to a list with other filters or sort order");
  return { anchor: { key: state.d === 1 ? new Date(state.k as number) : state.k, id: state.i }, page: state.p };
}
