import { createHmac, randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { CURSOR_MAX_PAGE, decodeCursor, derivedCursorKey, encodeCursor, setCursorKeys } from "./cursor.js";

/** Keys made at run time: nothing secret is committed. */
const newKey = () => randomBytes(32).toString("base64url");
/** A cursor signed with `key` the way the codec signs: what someone holding a key could make. */
const sign = (state: unknown, key: string) => {
  const payload = Buffer.from(JSON.stringify(state)).toString("base64url");
  return `${payload}.${createHmac("sha256", key).update(payload).digest().subarray(0, 16).toString("base64url")}`;
};
const stateOf = (cursor: string) => JSON.parse(Buffer.from(cursor.split(".")[0]!, "base64url").toString("utf8")) as Record<string, unknown>;

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

  afterEach(() => setCursorKeys([newKey()]));

  it("refuses well-formed JSON that is not one of its states, even signed with its key", () => {
    const key = newKey();
    setCursorKeys([key]);
    const list = { org_id: "org_a" };
    const forge = (state: object) => sign(state, key);
    const good = stateOf(encodeCursor(list, 2, { key: 5, id: "x" }));
    expect(decodeCursor(forge(good), list).page).toBe(2);
    for (const bad of [
      { ...good, v: 2 },
      { ...good, p: 1 },
      { ...good, p: 2.5 },
      { ...good, p: 2 ** 31 },
      { ...good, p: CURSOR_MAX_PAGE + 1 },
      { ...good, p: "3" },
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

describe("cursor signature and bounds (security probe, issue 30)", () => {
  afterEach(() => setCursorKeys([newKey()]));
  const list = { org_id: "org_a" };

  it("refuses an unsigned or re-signed cursor: the probe's page 2^31 never reaches a query", () => {
    const key = newKey();
    setCursorKeys([key]);
    const issued = encodeCursor(list, 2, { key: 5, id: "x" });
    const state = { ...stateOf(issued), p: 2 ** 31 };
    const unsigned = Buffer.from(JSON.stringify(state)).toString("base64url");
    for (const bad of [
      unsigned,
      `${unsigned}.${issued.split(".")[1]}`, // the issued signature on an altered payload
      sign(state, newKey()), // signed with a key that is not ours
      `${issued}x`,
      `${issued}.${issued.split(".")[1]}`,
      issued.split(".")[0]!,
      `.${issued.split(".")[1]}`,
    ]) {
      expect(thrown(() => decodeCursor(bad, list))).toEqual(refusal(/not a cursor this API issued/));
    }
    expect(decodeCursor(issued, list).page).toBe(2);
  });

  it("accepts the previous key during a rotation and stops once it is dropped", () => {
    const [oldKey, newer] = [newKey(), newKey()];
    setCursorKeys([oldKey]);
    const before = encodeCursor(list, 3, { key: "a", id: "x" });
    setCursorKeys([newer, oldKey]);
    expect(decodeCursor(before, list).page).toBe(3);
    const after = encodeCursor(list, 3, { key: "a", id: "x" });
    expect(after).not.toBe(before); // signed with the new key
    setCursorKeys([newer]);
    expect(decodeCursor(after, list).page).toBe(3);
    expect(thrown(() => decodeCursor(before, list))).toEqual(refusal(/not a cursor this API issued/));
    expect(() => setCursorKeys(["short"])).toThrow(/32 characters/);
    expect(() => setCursorKeys([])).toThrow(/32 characters/);
  });

  it("derives the same key on every replica of a service, another for another database", () => {
    const url = "mongodb://app:s3cret@db:27017/";
    expect(derivedCursorKey(url, "findings")).toBe(derivedCursorKey(url, "findings"));
    expect(derivedCursorKey(url, "findings")).not.toBe(derivedCursorKey(url, "scans"));
    expect(derivedCursorKey(url, "findings")).not.toBe(derivedCursorKey("mongodb://app:other@db:27017/", "findings"));
    setCursorKeys([derivedCursorKey(url, "findings")]);
    const c = encodeCursor(list, 2, { key: 1, id: "x" });
    setCursorKeys([derivedCursorKey(url, "findings")]); // another replica
    expect(decodeCursor(c, list).page).toBe(2);
  });

  it("issues no cursor past the page cap, and none for a page that cannot follow another", () => {
    expect(decodeCursor(encodeCursor(list, CURSOR_MAX_PAGE, { key: 1, id: "x" }), list).page).toBe(CURSOR_MAX_PAGE);
    expect(encodeCursor(list, CURSOR_MAX_PAGE + 1, { key: 1, id: "x" })).toBe("");
    expect(() => encodeCursor(list, 1, { key: 1, id: "x" })).toThrow(/page 2 or later/);
    expect(() => encodeCursor(list, 2.5, { key: 1, id: "x" })).toThrow(/page 2 or later/);
  });
});
