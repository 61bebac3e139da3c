import { DSL_EXPR, type Extractor, type Matcher } from "./schema.js";

/** What a probe got back, in the parts matchers address. Socket probes have no status or headers. */
export interface ProbeResponse {
  status?: number;
  /** Raw header lines ("Name: value", CRLF-separated), without the status line. */
  headerText: string;
  /** Header values by lowercase name (repeated headers joined with ", "). */
  headers: Record<string, string>;
  body: Buffer;
}

// latin1 keeps every byte as one char, so regexes and words see binary replies unchanged.
const text = (r: ProbeResponse, part: string): string => {
  switch (part) {
    case "header":
      return r.headerText;
    case "status":
      return r.status === undefined ? "" : String(r.status);
    case "all":
      return `${r.headerText}\r\n\r\n${r.body.toString("latin1")}`;
    default:
      return r.body.toString("latin1");
  }
};

const combine = (results: boolean[], condition: "and" | "or") => (condition === "and" ? results.every(Boolean) : results.some(Boolean));

function dslValue(name: string, r: ProbeResponse): number | undefined {
  switch (name) {
    case "status":
    case "status_code":
      return r.status;
    case "size":
    case "body_length":
      return r.body.length;
    case "content_length": {
      const v = Number(r.headers["content-length"]);
      return Number.isFinite(v) ? v : r.body.length;
    }
    case "header_length":
      return r.headerText.length;
    default:
      return undefined;
  }
}

function evalDsl(expr: string, r: ProbeResponse): boolean {
  const m = DSL_EXPR.exec(expr);
  if (!m) return false;
  const left = dslValue(m[1]!, r);
  const right = Number(m[3]);
  if (left === undefined) return false;
  switch (m[2]) {
    case "==":
      return left === right;
    case "!=":
      return left !== right;
    case "<":
      return left < right;
    case "<=":
      return left <= right;
    case ">":
      return left > right;
    default:
      return left >= right;
  }
}

export function matcherMatches(m: Matcher, r: ProbeResponse): boolean {
  let hit: boolean;
  switch (m.type) {
    case "status":
      hit = r.status !== undefined && m.status.includes(r.status);
      break;
    case "size":
      hit = m.size.includes(r.body.length);
      break;
    case "word": {
      const hay = m.case_insensitive ? text(r, m.part).toLowerCase() : text(r, m.part);
      hit = combine(
        m.words.map((w) => hay.includes(m.case_insensitive ? w.toLowerCase() : w)),
        m.condition,
      );
      break;
    }
    case "regex": {
      const hay = text(r, m.part);
      hit = combine(
        m.regex.map((re) => new RegExp(re, m.case_insensitive ? "mi" : "m").test(hay)),
        m.condition,
      );
      break;
    }
    case "binary": {
      const hay = Buffer.from(text(r, m.part), "latin1");
      hit = combine(
        m.binary.map((hex) => hay.includes(Buffer.from(hex, "hex"))),
        m.condition,
      );
      break;
    }
    case "dsl":
      hit = combine(
        m.dsl.map((e) => evalDsl(e, r)),
        m.condition,
      );
      break;
  }
  return m.negative ? !hit : hit;
}

export function probeMatches(probe: { matchers: Matcher[]; matchers_condition: "and" | "or" }, r: ProbeResponse): boolean {
  return combine(
    probe.matchers.map((m) => matcherMatches(m, r)),
    probe.matchers_condition,
  );
}

/** Runs extractors; returns name → distinct values (name defaults to the extractor's index). */
export function extract(extractors: Extractor[], r: ProbeResponse): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  extractors.forEach((e, i) => {
    const name = e.name ?? `extract_${i}`;
    const values = new Set<string>();
    if (e.type === "regex") {
      const hay = text(r, e.part);
      for (const re of e.regex)
        for (const m of hay.matchAll(new RegExp(re, "gm"))) {
          const v = m[e.group];
          if (v) values.add(v.slice(0, 200));
          if (values.size >= 20) break;
        }
    } else {
      for (const key of e.kval) {
        const v = r.headers[key.toLowerCase().replace(/_/g, "-")];
        if (v) values.add(v.slice(0, 200));
      }
    }
    if (values.size) out[name] = [...values];
  });
  return out;
}

/** Builds a ProbeResponse from raw header pairs (Node's rawHeaders) and a body. */
export function httpResponse(status: number, rawHeaders: string[], body: Buffer): ProbeResponse {
  const lines: string[] = [];
  const headers: Record<string, string> = {};
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const k = rawHeaders[i]!;
    const v = rawHeaders[i + 1]!;
    lines.push(`${k}: ${v}`);
    const lk = k.toLowerCase();
    headers[lk] = headers[lk] ? `${headers[lk]}, ${v}` : v;
  }
  return { status, headerText: lines.join("\r\n"), headers, body };
}

export function socketResponse(data: Buffer): ProbeResponse {
  return { headerText: "", headers: {}, body: data };
}
