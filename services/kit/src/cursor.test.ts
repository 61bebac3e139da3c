import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor } from "./cursor.js";

const refusal = (message: RegExp) =>
  expect.objectContaining({ kind: "validation", errorCode: "VALIDATION_ERROR", field: "cursor", message: expect.stringMatching(message) });

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error("did not throw");
}

describe("cursor", () => {
  it("round-trips for its own list and refuses others and forgeries", () => {
    const list = [
      { org_id: "org_a", status: "open" },
      { key: "severity_rank", keyDir: 1, idDir: -1 },
    ];
    const c = encodeCursor(list, 3, { key: 2, id: "finding_x" });
    expect(decodeCursor(c, list)).toEqual({ anchor: { key: 2, id: "finding_x" }, page: 3 });
    expect(decodeCursor(encodeCursor(list, 2, { key: "finding_y", id: "finding_y" }), list).anchor.key).toBe("finding_y");
    expect(thrown(() => decodeCursor(c, [{ ...list[0], org_id: "org_b" }, list[1]]))).toEqual(refusal(/other filters/));
    expect(thrown(() => decodeCursor(c, [list[0], { key: "_id", keyDir: -1, idDir: -1 }]))).toEqual(refusal(/other filters/));
    expect(thrown(() => decodeCursor("garbage", list))).toEqual(refusal(/not a cursor this API issued/));
    expect(thrown(() => decodeCursor("", list))).toEqual(refusal(/not a cursor/));
  });

  it("refuses well-formed JSON that is not one of its states", () => {
    const list = { org_id: "org_a" };
    const forge = (state: object) => Buffer.from(JSON.stringify(state)).toString("base64url");
    const good = JSON.parse(Buffer.from(encodeCursor(list, 2, { key: 5, id: "x" }), "base64url").toString("utf8")) as Record<string, unknown>;
    expect(decodeCursor(forge(good), list).page).toBe(2);
    for (const bad of [
      { ...good, v: 2 },
      { ...good, p: 1 },
      { ...good, p: 2.5 },
      { ...good, i: 7 },
      { ...good, k: null },
      { ...good, k: { $gt: "" } },
      { ...good, d: 1, k: "2026-01-01" },
      { ...good, d: 2 },
      null,
      [],
    ]) {
      expect(thrown(() => decodeCursor(forge(bad as object), list))).toEqual(refusal(/not a cursor/));
    }
  });

  it("keeps a Date key exact to the millisecond, as a Date", () => {
    const list = { org_id: "org_a" };
    const at = new Date("2026-03-01T10:00:00.123Z");
    const { anchor } = decodeCursor(encodeCursor(list, 4, { key: at, id: "scan_1" }), list);
    expect(anchor.key).toBeInstanceOf(Date);
    expect((anchor.key as Date).getTime()).toBe(at.getTime());
    // A number key stays a number: the two kinds are not confused.
    expect(decodeCursor(encodeCursor(list, 4, { key: at.getTime(), id: "scan_1" }), list).anchor.key).toBe(at.getTime());
    expect(() => encodeCursor(list, 2, { key: new Date(Number.NaN), id: "x" })).toThrow(/finite/);
  });
});
