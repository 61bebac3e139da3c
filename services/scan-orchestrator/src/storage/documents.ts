import type { Document } from "mongodb";

/* Record ⇄ document helpers shared by the scan and target stores. */

/** Drops nulls (the driver stores an undefined field as null) so records read as the domain built them. */
export function clean<T>(doc: Document | null): T | null {
  if (!doc) return null;
  const out: Document = {};
  for (const [k, v] of Object.entries(doc)) if (v !== null && v !== undefined) out[k] = v;
  return out as T;
}

/** $set of the fields `to` changed, $unset of those it dropped: a transition writes only its own changes. */
export function changes<T extends object>(from: T, to: T): Document {
  const $set: Document = {};
  const $unset: Document = {};
  const before = from as unknown as Record<string, unknown>;
  const after = to as unknown as Record<string, unknown>;
  for (const k of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (JSON.stringify(after[k]) === JSON.stringify(before[k])) continue;
    if (after[k] === undefined) $unset[k] = "";
    else $set[k] = after[k];
  }
  return Object.keys($unset).length ? { $set, $unset } : { $set };
}
