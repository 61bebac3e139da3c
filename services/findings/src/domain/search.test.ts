import { describe, expect, it } from "vitest";
import { filterQuery } from "../storage/list-query.js";
import { MemoryFindings } from "../testing/memory.js";
import { newFinding } from "./changes.js";
import { listQuery } from "./list.js";
import { matchesSearch, searchFields, searchPlan } from "./search.js";
import { detection } from "./test-fixtures.js";

const redis = {
  title: "Redis reachable without authentication",
  affected_component: "redis://10.231.0.5:6379",
  cve_ids: ["CVE-2022-0543"],
  template_id: "redis-unauth",
};

describe("searchFields", () => {
  it("keeps the fields lower-cased, one per line, and every trigram of each once", () => {
    const f = searchFields(redis);
    expect(f.search_text).toBe("redis reachable without authentication\nredis://10.231.0.5:6379\ncve-2022-0543\nredis-unauth");
    expect(f.search_keys).toContain("red");
    expect(f.search_keys).toContain("231");
    expect(f.search_keys).toContain("054");
    expect(new Set(f.search_keys).size).toBe(f.search_keys.length);
    // Nothing spans two fields: a trigram across the line break would match text no field holds.
    expect(f.search_keys.some((k) => k.includes("\n"))).toBe(false);
  });
});

describe("searchPlan", () => {
  it("narrows by a trigram of the longest word and checks every word", () => {
    expect(searchPlan("Redis  AUTH")).toEqual({ key: "edi", words: ["redis", "auth"] });
    expect(searchPlan("cve-2022-0543").key).toHaveLength(3);
  });

  it("refuses a search without a word of 3 characters, or longer than 200, naming `search`", () => {
    expect(() => searchPlan("ab c")).toThrow(expect.objectContaining({ errorCode: "VALIDATION_ERROR", field: "search" }));
    expect(() => searchPlan("x".repeat(201))).toThrow(expect.objectContaining({ field: "search" }));
  });

  it("matches text containing every word, anywhere in a field, whatever the case", () => {
    const text = searchFields(redis).search_text;
    expect(matchesSearch(text, searchPlan("ReDiS auth"))).toBe(true);
    expect(matchesSearch(text, searchPlan("10.231"))).toBe(true);
    expect(matchesSearch(text, searchPlan("cve-2022-0543"))).toBe(true);
    expect(matchesSearch(text, searchPlan("unauth"))).toBe(true);
    expect(matchesSearch(text, searchPlan("redis postgres"))).toBe(false);
    // The plan's key is a trigram of every text that holds the words.
    for (const q of ["redis auth", "10.231", "cve-2022-0543", "unauth"]) expect(searchFields(redis).search_keys).toContain(searchPlan(q).key);
  });
});

describe("search in the list query", () => {
  it("is an equality on one trigram (the index) and a regex per word, escaped", () => {
    expect(filterQuery("org_a", { search: searchPlan("10.231 redis") })).toEqual({
      org_id: "org_a",
      search_keys: "0.2",
      $and: [{ search_text: { $regex: "10\\.231" } }, { search_text: { $regex: "redis" } }],
    });
  });

  it("finds new findings by title, component, CVE and template in the in-memory store too", async () => {
    const store = new MemoryFindings();
    const now = new Date("2026-11-27T10:00:00Z");
    const a = newFinding(detection({ org_id: "org_a", ...redis }), "fp-a", "finding_a", now).doc;
    const b = newFinding(
      detection({ org_id: "org_a", title: "TLS 1.0 enabled", affected_component: "https://app.example:443", cve_ids: [], template_id: "tls-old" }),
      "fp-b",
      "finding_b",
      now,
    ).doc;
    expect(a.search_keys).toEqual(searchFields(redis).search_keys);
    store.docs.set(a._id, a);
    store.docs.set(b._id, b);
    const ids = async (text: string) => (await store.page("org_a", listQuery({ search: searchPlan(text) }), 0, 20)).map((f) => f._id);
    expect(await ids("tls")).toEqual(["finding_b"]);
    expect(await ids("CVE-2022")).toEqual(["finding_a"]);
    expect(await ids("app.example")).toEqual(["finding_b"]);
    expect(await ids("nothing-like-it")).toEqual([]);
  });
});
