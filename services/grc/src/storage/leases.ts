import { upsertOrUpdate } from "@vulnscan/kit";
import type { PeriodicLease } from "@vulnscan/kit/periodic";
import type { Db } from "mongodb";
import { Collections } from "./collections.js";

/**
 * One pass per period across every replica: a job's document (`_id` the job) holds the last
 * period taken, and a replica takes the current one by moving it forward (a conditional update
 * that matches for exactly one caller). The jobs' own writes are guarded besides, so two passes
 * that overlap still announce each item once.
 */
export function periodLease(db: Db, job: string, periodMs: number, now = () => Date.now()): PeriodicLease {
  const jobs = db.collection<{ _id: string; period: number }>(Collections.jobs);
  return {
    acquire: async () => {
      const period = Math.floor(now() / periodMs);
      await upsertOrUpdate((upsert) => jobs.updateOne({ _id: job }, { $setOnInsert: { period: -1 } }, { upsert }));
      return (await jobs.updateOne({ _id: job, period: { $lt: period } }, { $set: { period } })).modifiedCount === 1;
    },
  };
}
