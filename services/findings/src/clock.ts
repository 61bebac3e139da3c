import fs from "node:fs";
import type { Clock } from "./domain/ports.js";

/**
 * The service's clock. Unset: real time. With CLOCK_OFFSET_FILE (tests only) the file holds a
 * number of milliseconds added to real time, re-read at most every 200 ms, so an end-to-end test
 * moves time forward for every replica at once (SLA states, breaches, acceptance expiry) without
 * touching the machine's clock. A missing or unreadable file means no offset.
 */
export function serviceClock(offsetFile: string | undefined): Clock {
  if (!offsetFile) return () => new Date();
  let offset = 0;
  let readAt = 0;
  return () => {
    const t = Date.now();
    if (t - readAt > 200) {
      readAt = t;
      try {
        const n = Number(fs.readFileSync(offsetFile, "utf8").trim());
        offset = Number.isFinite(n) ? n : 0;
      } catch {
        offset = 0;
      }
    }
    return new Date(t + offset);
  };
}
