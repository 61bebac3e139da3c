import { createMongo, type MongoHandle } from "@vulnscan/kit";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { unique } from "../../../test/support/names.js";
import { RECENT_DURATIONS } from "../src/domain/estimate.js";
import { type DurationsDoc, MongoScanDurations } from "../src/storage/durations.js";
import { Collections } from "../src/storage/mongo-store.js";

/* The estimate's running summary on the real MongoDB-protocol server (FerretDB locally). */

let mongo: MongoHandle;
let durations: MongoScanDurations;

beforeAll(async () => {
  mongo = createMongo(inject("mongoUrl"), unique("scans_durations"), "scan-orchestrator");
  durations = new MongoScanDurations(mongo.db.collection<DurationsDoc>(Collections.durations));
});
afterAll(async () => {
  await mongo?.db.dropDatabase().catch(() => undefined);
  await mongo?.close();
});

describe("MongoScanDurations", () => {
  it("keeps the latest durations per organization and scan type, oldest first, at most RECENT_DURATIONS", async () => {
    expect(await durations.recent("org_a", "quick")).toEqual([]);
    for (let i = 1; i <= RECENT_DURATIONS + 2; i++) await durations.record("org_a", "quick", i * 1.5);
    await durations.record("org_a", "full", 700);
    await durations.record("org_b", "quick", 9);
    expect(await durations.recent("org_a", "quick")).toEqual(Array.from({ length: RECENT_DURATIONS }, (_, i) => (i + 3) * 1.5));
    expect(await durations.recent("org_a", "full")).toEqual([700]);
    expect(await durations.recent("org_b", "quick")).toEqual([9]);
    // One small document per organization and type.
    expect(await mongo.db.collection(Collections.durations).countDocuments({ _id: { $in: ["org_a|quick", "org_a|full", "org_b|quick"] } } as never)).toBe(3);
  });
});
