// Globals the deployables' bundles take from here instead of Node (esbuild `inject`,
// scripts/lib/build.ts): the bundled code's free `Headers` and `navigator` refer to these exports.
//
// Why: Node creates `Headers`, `Response`, `fetch` and the rest of its fetch API by loading its
// bundled undici at the first touch of any of them: 2.1 MiB of V8 heap and 3-5 MiB of resident
// memory in every process. Connect builds each call's metadata as a `Headers`, and pg probes
// `Response` for Cloudflare Workers when there is no `navigator` (Node 20; Node 21 and later
// define it). Nothing else in the bundles uses the fetch API. Headers libraries on npm either
// are undici's (the same load) or differ from the Fetch standard (headers-polyfill sorts names
// with `localeCompare` and drops invalid values silently), so this one is written to the standard
// and tested against Node's own (`bundle-globals.test.ts`).

import { availableParallelism } from "node:os";

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const INVALID_VALUE = /[\0\r\n]/;
const EDGE_WHITESPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g;

function headerName(name: string): string {
  const s = String(name);
  if (!TOKEN.test(s)) throw new TypeError(`Headers: invalid header name "${s}"`);
  return s.toLowerCase();
}

function headerValue(value: string): string {
  const s = String(value).replace(EDGE_WHITESPACE, "");
  if (INVALID_VALUE.test(s)) throw new TypeError(`Headers: invalid header value "${s}"`);
  return s;
}

/** The Fetch standard's `Headers` (no guard: nothing in the bundles makes immutable headers). */
class FetchHeaders implements globalThis.Headers {
  /** Lower-cased name → values in the order added (set-cookie values stay apart). */
  readonly #values = new Map<string, string[]>();

  constructor(init?: ConstructorParameters<typeof globalThis.Headers>[0]) {
    if (init == null) return;
    if (typeof init !== "object") throw new TypeError("Headers: init must be an object");
    if (Symbol.iterator in init) {
      for (const pair of init as Iterable<Iterable<string>>) {
        const [name, value, ...rest] = [...pair];
        if (value === undefined || rest.length > 0) throw new TypeError("Headers: each init pair must have two items");
        this.append(name!, value);
      }
      return;
    }
    for (const [name, value] of Object.entries(init)) this.append(name, String(value));
  }

  append(name: string, value: string): void {
    const key = headerName(name);
    const v = headerValue(value);
    const list = this.#values.get(key);
    if (list) list.push(v);
    else this.#values.set(key, [v]);
  }

  set(name: string, value: string): void {
    this.#values.set(headerName(name), [headerValue(value)]);
  }

  delete(name: string): void {
    this.#values.delete(headerName(name));
  }

  get(name: string): string | null {
    return this.#values.get(headerName(name))?.join(", ") ?? null;
  }

  getSetCookie(): string[] {
    return [...(this.#values.get("set-cookie") ?? [])];
  }

  has(name: string): boolean {
    return this.#values.has(headerName(name));
  }

  forEach(callback: (value: string, key: string, parent: globalThis.Headers) => void, thisArg?: unknown): void {
    for (const [name, value] of this.entries()) callback.call(thisArg, value, name, this);
  }

  /** Sorted by name; one entry per name, values joined, except set-cookie: one entry per value. */
  *entries(): Generator<[string, string], undefined> {
    for (const name of [...this.#values.keys()].sort()) {
      const list = this.#values.get(name);
      if (!list) continue; // deleted while iterating
      if (name === "set-cookie") for (const v of list) yield [name, v];
      else yield [name, list.join(", ")];
    }
    return undefined;
  }

  *keys(): Generator<string, undefined> {
    for (const [name] of this.entries()) yield name;
    return undefined;
  }

  *values(): Generator<string, undefined> {
    for (const [, value] of this.entries()) yield value;
    return undefined;
  }

  [Symbol.iterator](): Generator<[string, string], undefined> {
    return this.entries();
  }

  get [Symbol.toStringTag](): string {
    return "Headers";
  }
}

export { FetchHeaders as Headers };

/** What Node 21 and later define globally (the fields libraries test). */
interface Navigator {
  userAgent: string;
  hardwareConcurrency: number;
  language: string;
  platform: string;
}

/** Node's own from Node 21 on; on Node 20 what Node 21 gives. */
export const navigator: Navigator = (globalThis as { navigator?: Navigator }).navigator ?? {
  userAgent: `Node.js/${process.versions.node.split(".")[0]}`,
  hardwareConcurrency: availableParallelism(),
  language: "en-US",
  platform: process.platform,
};
