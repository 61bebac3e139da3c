import { describe, expect, it } from "vitest";
import { Headers as BundleHeaders, navigator } from "./bundle-globals.js";

type AnyHeaders = globalThis.Headers;
type Step = (h: AnyHeaders) => unknown;

/** What a Headers shows after `steps`: each step's result (or the error's type) and the final entries. */
function observe(make: () => AnyHeaders, steps: Step[]) {
  let h: AnyHeaders;
  try {
    h = make();
  } catch (err) {
    return { construct: (err as Error).constructor.name };
  }
  const results = steps.map((step) => {
    try {
      return step(h);
    } catch (err) {
      return `throws ${(err as Error).constructor.name}`;
    }
  });
  const seen: [string, string][] = [];
  h.forEach((value, name) => {
    seen.push([name, value]);
  });
  return { results, entries: [...h], keys: [...h.keys()], values: [...h.values()], forEach: seen, setCookie: h.getSetCookie() };
}

// Node's own Headers (undici) is the reference: every case must read the same from ours.
const cases: [string, (H: typeof globalThis.Headers) => AnyHeaders, Step[]][] = [
  ["empty", (H) => new H(), [(h) => h.get("x"), (h) => h.has("x")]],
  [
    "from a record",
    (H) => new H({ "Content-Type": "application/proto", "X-Request-Id": " abc\t" }),
    [(h) => h.get("content-type"), (h) => h.get("X-REQUEST-ID")],
  ],
  [
    "from pairs, repeated names",
    (H) =>
      new H([
        ["a", "1"],
        ["B", "2"],
        ["a", "3"],
      ]),
    [(h) => h.get("A")],
  ],
  ["from another Headers", (H) => new H(new H({ z: "1", a: "2" })), [(h) => h.get("z")]],
  ["from Node's Headers", (H) => new H(new globalThis.Headers({ m: "1" })), [(h) => h.get("m")]],
  [
    "append, set, delete",
    (H) => new H(),
    [
      (h) => h.append("Grpc-Status", "0"),
      (h) => h.append("grpc-status", "1"),
      (h) => h.get("grpc-status"),
      (h) => h.set("GRPC-STATUS", "2"),
      (h) => h.delete("x-missing"),
      (h) => h.delete("grpc-status"),
      (h) => h.has("grpc-status"),
    ],
  ],
  [
    "set-cookie kept apart",
    (H) =>
      new H([
        ["set-cookie", "a=1"],
        ["Set-Cookie", "b=2"],
        ["x", "y"],
      ]),
    [(h) => h.get("set-cookie")],
  ],
  ["sorted by name", (H) => new H({ zeta: "1", Alpha: "2", "x-b": "3", "x-a": "4", "connect-timeout-ms": "5" }), []],
  ["empty value", (H) => new H({ a: "" }), [(h) => h.get("a"), (h) => h.has("a")]],
  ["values trimmed", (H) => new H(), [(h) => h.append("a", "\t v \n"), (h) => h.set("b", " w "), (h) => h.get("a")]],
  ["record value that is a number", (H) => new H({ n: 5 as unknown as string }), [(h) => h.get("n")]],
  ["invalid name in init", (H) => new H({ "bad name": "1" }), []],
  ["invalid value in init", (H) => new H({ a: "x\ny" }), []],
  ["pair of one item", (H) => new H([["a"]] as unknown as string[][]), []],
  ["pair of three items", (H) => new H([["a", "1", "2"]]), []],
  [
    "invalid names and values",
    (H) => new H(),
    [
      (h) => h.append("a:b", "1"),
      (h) => h.set("é", "1"),
      (h) => h.get(""),
      (h) => h.has("a b"),
      (h) => h.delete("(x)"),
      (h) => h.append("a", "1\r2"),
      (h) => h.set("b", "\0"),
    ],
  ],
];

describe("the bundles' Headers (bundle-globals.ts) reads as Node's", () => {
  for (const [name, make, steps] of cases)
    it(name, () => {
      expect(observe(() => make(BundleHeaders), steps)).toEqual(observe(() => make(globalThis.Headers), steps));
    });

  it("names itself Headers and iterates while entries are deleted", () => {
    const h = new BundleHeaders({ a: "1", b: "2", c: "3" });
    expect(Object.prototype.toString.call(h)).toBe("[object Headers]");
    const seen: string[] = [];
    for (const [name] of h) {
      seen.push(name);
      h.delete("b");
    }
    expect(seen).toEqual(["a", "c"]);
  });

  it("is what Node's fetch API takes as headers", () => {
    const request = new Request("http://127.0.0.1/", { headers: new BundleHeaders({ "x-a": "1", "set-cookie": "k=v" }) });
    expect([...request.headers]).toEqual([
      ["set-cookie", "k=v"],
      ["x-a", "1"],
    ]);
  });
});

describe("the bundles' navigator", () => {
  it("is Node's where Node defines one, else what Node 21 defines", () => {
    const own = (globalThis as { navigator?: unknown }).navigator;
    if (own) expect(navigator).toBe(own);
    else expect(navigator).toMatchObject({ userAgent: `Node.js/${process.versions.node.split(".")[0]}`, platform: process.platform });
    expect(navigator.userAgent).not.toBe("Cloudflare-Workers");
  });
});
