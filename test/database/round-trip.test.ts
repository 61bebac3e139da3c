import { createMongo, type MongoHandle } from "@vulnscan/kit";
import { Binary, Double, Int32, Long, ObjectId, Timestamp } from "mongodb";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { unique } from "../support/names.js";

/*
 * A document reads back exactly as it was written, whichever server the run has. On the fallback
 * this guards the project's FerretDB patches to how stored documents are decoded
 * (scripts/ferretdb/overlay/internal/handler/sjson/vulnscan_decode.go): objects and arrays are
 * split in one pass, strings without escapes are taken as they are, every other one goes through
 * the JSON decoder, and decoded schemas are shared between documents of one shape.
 */

let mongo: MongoHandle | undefined;

beforeAll(() => {
  mongo = createMongo(inject("mongoUrl"), unique("roundtrip"), "round-trip-test");
});

afterAll(async () => {
  await mongo?.db.dropDatabase().catch(() => undefined);
  await mongo?.close();
});

/** Strings a JSON text must escape, or that only look like it should. */
const STRINGS = [
  "",
  "plain ascii",
  'quote " inside',
  "back\\slash and \\u0041 as text",
  "slash / and </script>",
  "line\nbreak, tab\t, carriage\r, form\f, backspace\b",
  "control \u0001\u001f chars",
  "delete \u007f",
  "accents é à ü, CJK 漏洞, emoji 🛡️🔥",
  "combining e\u0301 and zero width \u200b",
  "line separators \u2028\u2029",
  "ends with backslash \\",
  "\u00a0non-breaking",
  // What the one-pass splitting of objects and arrays must not take for structure.
  'braces {"a": [1, 2]}, ] and } , : inside',
  'an escaped quote before a brace \\"} and ]',
  "[",
  "}",
];

describe(`documents read back as written (${inject("mongoServer")})`, () => {
  it("keeps every string, nested or in arrays, and every BSON type the services store", async () => {
    const docs = STRINGS.map((s, i) => ({
      _id: `doc-${i}`,
      s,
      list: [s, `${s}${i}`, i, null, true],
      nested: { s, deeper: { s, list: [s] } },
      "a key with spaces, é and 漏洞": s,
      n: i,
      long: Long.fromString("9007199254740993"),
      int: new Int32(-7),
      double: new Double(0.1 + 0.2),
      whole: new Double(3),
      at: new Date(1_700_000_000_123 + i),
      flag: i % 2 === 0,
      none: null,
      bin: new Binary(Buffer.from([0, 1, 2, 255])),
      oid: new ObjectId("65a1b2c3d4e5f60718293a4b"),
      ts: new Timestamp({ t: 1_700_000_000, i: 3 }),
    }));
    const col = mongo!.db.collection<(typeof docs)[number]>("docs");
    await col.insertMany(docs);
    const back = await col.find({}, { sort: { _id: 1 }, promoteLongs: false, promoteValues: false }).toArray();
    const expected = [...docs].sort((a, b) => (a._id < b._id ? -1 : 1));
    expect(back).toHaveLength(expected.length);
    for (const [i, doc] of back.entries()) {
      const want = expected[i]!;
      // Field order is part of what a document is (MongoDB keeps it).
      expect(Object.keys(doc)).toEqual(Object.keys(want));
      expect(String(doc.s)).toBe(want.s);
      expect(doc.list.map((v: unknown) => (v === null ? null : (v as { valueOf(): unknown }).valueOf()))).toEqual(
        want.list.map((v) => (v === null ? null : v.valueOf())),
      );
      expect(String(doc.nested.deeper.s)).toBe(want.s);
      expect(String(doc.nested.deeper.list[0])).toBe(want.s);
      expect(doc.long.toString()).toBe("9007199254740993");
      expect(Number(doc.int.valueOf())).toBe(-7);
      expect(Number(doc.double.valueOf())).toBe(0.1 + 0.2);
      expect(Number(doc.whole.valueOf())).toBe(3);
      expect((doc.at as unknown as Date).getTime()).toBe(want.at.getTime());
      expect(Boolean(doc.flag.valueOf())).toBe(want.flag);
      expect(doc.none).toBeNull();
      expect(Buffer.from((doc.bin as Binary).buffer).equals(Buffer.from([0, 1, 2, 255]))).toBe(true);
      expect(doc.oid.toHexString()).toBe("65a1b2c3d4e5f60718293a4b");
      expect((doc.ts as Timestamp).toString()).toBe(want.ts.toString());
    }
    // Equality on a string the decoder had to unescape finds it (the filter path reads documents too).
    for (const s of STRINGS) expect(await col.countDocuments({ s })).toBe(1);
  });

  it("reads documents of one shape and of many shapes alike (decoded schemas are shared, never mixed)", async () => {
    const col = mongo!.db.collection<{ _id: string; v: unknown; tag: string }>("shapes");
    // The same field holds a different type, or an array of another length, in each document.
    const values: unknown[] = ["text", 42, 1.5, true, null, new Date(5), ["a"], ["a", "b"], [1, "a"], { x: "y" }, { x: 1 }];
    const docs = Array.from({ length: 600 }, (_, i) => ({ _id: `s-${String(i).padStart(4, "0")}`, v: values[i % values.length], tag: `t${i}` }));
    await col.insertMany(docs);
    const back = await col.find({}, { sort: { _id: 1 } }).toArray();
    expect(back).toEqual(docs);
  });
});
