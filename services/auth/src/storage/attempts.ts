import { SlotCounter } from "@vulnscan/kit";
import type { Db } from "mongodb";
import type { AttemptCounter, AttemptCount } from "../domain/ports.js";
import { Collections } from "./collections.js";

/** Attempts counted past this are all "too many"; it only bounds the documents one key can make. */
const CAP = 10_000;

/**
 * Attempt counters in fixed windows aligned to the window length (`<key>@<window start>`),
 * counted with the kit's SlotCounter: each attempt inserts its own position, so parallel
 * guesses are counted exactly. A `$inc` counter is not enough on FerretDB v1, which loses
 * concurrent increments and would let a burst of guesses past the limit.
 */
export class MongoAttemptCounter implements AttemptCounter {
  private readonly counter: SlotCounter;
  constructor(db: Db) {
    this.counter = new SlotCounter(db, Collections.loginAttempts);
  }

  async hit(key: string, now: Date, windowMs: number): Promise<AttemptCount> {
    const start = Math.floor(now.getTime() / windowMs) * windowMs;
    const resetsAt = new Date(start + windowMs);
    const position = await this.counter.take(`${key}@${start}`, CAP, resetsAt);
    return { count: position ?? CAP + 1, resetsAt };
  }

  async reset(key: string): Promise<void> {
    await this.counter.forget(`${key}@`);
  }

  /** Deletes the counters of windows that are over (there is no TTL index to do it). */
  async purgeExpired(now = new Date()): Promise<number> {
    return this.counter.prune(now);
  }
}
