import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { unique } from "../../../test/support/names.js";
import { createMongo, ensureIndexes, isDuplicateKey, pageOf, type IndexSpec, type MongoHandle } from "../src/mongo.js";

interface ItemDoc {
  _id: string;
  org_id: string;
  name: string;
  created_at: Date;
}

let mongo: MongoHandle;

beforeAll(() => {
  mongo = createMongo(inject("mongoUrl"), unique("kitmongo"), "kit-test");
});
afterAll(async () => {
  await mongo.db.dropDatabase().catch(() => undefined);
  await mongo.close();
});

describe("Mongo helper against a real MongoDB-protocol server", () => {
  it("ensures indexes (twice, as a restarting service does) and round-trips documents", async () => {
    const specs: IndexSpec[] = [
      { collection: "items", key: { org_id: 1, name: 1 }, options: { unique: true, name: "org_name_unique" } },
      { collection: "items", key: { org_id: 1, created_at: -1 } },
    ];
    await ensureIndexes(mongo.db, specs);
    await ensureIndexes(mongo.db, specs);
    const indexNames = (await mongo.db.collection("items").indexes()).map((i) => i.name);
    expect(indexNames).toEqual(expect.arrayContaining(["org_name_unique"]));

    const items = mongo.db.collection<ItemDoc>("items");
    const created = new Date("2026-01-02T03:04:05.000Z");
    await items.insertOne({ _id: "item_1", org_id: "org_a", name: "one", created_at: created });
    await items.insertOne({ _id: "item_2", org_id: "org_b", name: "one", created_at: created });
    expect(await items.findOne({ _id: "item_1", org_id: "org_a" })).toEqual({
      _id: "item_1",
      org_id: "org_a",
      name: "one",
      created_at: created,
    });
    // Scoped by organization: the other org's document is invisible with this org's filter.
    expect(await items.findOne({ _id: "item_2", org_id: "org_a" })).toBeNull();

    const dup = await items.insertOne({ _id: "item_3", org_id: "org_a", name: "one", created_at: created }).catch((e: unknown) => e);
    expect(isDuplicateKey(dup)).toBe(true);

    const updated = await items.findOneAndUpdate({ _id: "item_1", org_id: "org_a" }, { $set: { name: "renamed" } }, { returnDocument: "after" });
    expect(updated?.name).toBe("renamed");
  });

  it("replaces an index an earlier version declared under another name or with other options", async () => {
    const coll = mongo.db.collection("upgraded");
    await coll.createIndex({ expires_at: 1 }); // named expires_at_1 by the server, as an older release left it
    await coll.createIndex({ org_id: 1 }, { name: "by_org" });
    const specs: IndexSpec[] = [
      { collection: "upgraded", key: { expires_at: 1 }, options: { name: "expiry" } },
      { collection: "upgraded", key: { org_id: 1, created_at: -1 }, options: { name: "by_org" } },
    ];
    await ensureIndexes(mongo.db, specs);
    await ensureIndexes(mongo.db, specs);
    const byName = Object.fromEntries((await coll.indexes()).map((i) => [i.name, i.key]));
    expect(byName).toEqual({ _id_: { _id: 1 }, expiry: { expires_at: 1 }, by_org: { org_id: 1, created_at: -1 } });
  });

  it("reads one page of a list in its order, with the total of the filter and without the hidden fields", async () => {
    const coll = mongo.db.collection<{ _id: string; org_id: string; outbox?: string[] }>("paged");
    await coll.insertMany(["p1", "p2", "p3", "p4", "p5"].map((_id) => ({ _id, org_id: "org_a", outbox: ["evt"] })));
    await coll.insertOne({ _id: "p6", org_id: "org_b" });
    const second = await pageOf(coll, { org_id: "org_a" }, { _id: -1 }, 2, 2, { outbox: 0 });
    expect(second).toEqual({
      items: [
        { _id: "p3", org_id: "org_a" },
        { _id: "p2", org_id: "org_a" },
      ],
      total: 5,
    });
    expect((await pageOf(coll, { org_id: "org_a" }, { _id: 1 }, 4, 2)).items).toEqual([{ _id: "p5", org_id: "org_a", outbox: ["evt"] }]);
  });

  it("answers ping through its own client, its readiness connection and a fresh client", async () => {
    await expect(mongo.ping()).resolves.toBeUndefined();
    await expect(mongo.pingDatabase()).resolves.toBeUndefined();
    await expect(mongo.pingFresh()).resolves.toBeUndefined();
  });
});

describe("a database that is not there when the service starts", () => {
  it("is used once it answers: a failed first connection does not leave the client closed for good", async () => {
    const real = new URL(inject("mongoUrl"));
    // A port nothing listens on yet; later a proxy to the real server opens there.
    const port = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, "127.0.0.1", () => {
        const p = (probe.address() as net.AddressInfo).port;
        probe.close(() => resolve(p));
      });
    });
    const late = createMongo(`mongodb://127.0.0.1:${port}/`, unique("kitlate"), "kit-late");
    let proxy: net.Server | undefined;
    try {
      await expect(late.ping()).rejects.toThrow();
      proxy = net
        .createServer((socket) => {
          const upstream = net.connect(Number(real.port), real.hostname);
          socket.pipe(upstream).pipe(socket);
          socket.on("error", () => upstream.destroy());
          upstream.on("error", () => socket.destroy());
        })
        .listen(port, "127.0.0.1");
      const deadline = Date.now() + 20_000;
      for (;;) {
        try {
          await late.ping();
          break;
        } catch (err) {
          if (Date.now() > deadline) throw err;
          await new Promise((r) => setTimeout(r, 250));
        }
      }
    } finally {
      await late.close();
      proxy?.close();
    }
  }, 30_000);
});
