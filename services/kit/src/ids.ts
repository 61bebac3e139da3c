import { randomBytes } from "node:crypto";

/**
 * Public ids look like `scan_<hex>`. The first 12 hex digits are the creation time in
 * milliseconds, so ids sort by creation and an index on the id serves "newest first".
 */
export function newId(prefix: string, now: number = Date.now()): string {
  return `${prefix}_${now.toString(16).padStart(12, "0")}${randomBytes(8).toString("hex")}`;
}

export function hasPrefix(id: string, prefix: string): boolean {
  return new RegExp(`^${prefix}_[0-9a-f]{28}$`).test(id);
}
