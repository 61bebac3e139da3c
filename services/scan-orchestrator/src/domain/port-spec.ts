import { validationError } from "@vulnscan/kit/core";

/*
 * The `ports` field of a scan: a comma list of ports and ranges ("22,80,443,8000-8100"),
 * honoured exactly by the scanner. Empty means the scanner's default common-ports list.
 */

export const MAX_PORT_ITEMS = 100;

export interface PortSpec {
  /** Normalized text (items trimmed, no spaces); empty for the default list. */
  text: string;
  ranges: [number, number][];
}

const PORT = /^\d{1,5}$/;

function port(s: string): number | undefined {
  if (!PORT.test(s)) return undefined;
  const n = Number(s);
  return n >= 1 && n <= 65535 ? n : undefined;
}

export function parsePorts(input: string): PortSpec {
  const trimmed = input.trim();
  if (trimmed === "") return { text: "", ranges: [] };
  const items = trimmed.split(",").map((s) => s.trim());
  if (items.length > MAX_PORT_ITEMS) {
    throw validationError("ports", `At most ${MAX_PORT_ITEMS} ports or ranges may be given`);
  }
  const ranges: [number, number][] = [];
  for (const item of items) {
    const parts = item.split("-").map((s) => s.trim());
    const [a, b] = parts.length === 1 ? [port(parts[0]!), port(parts[0]!)] : parts.length === 2 ? [port(parts[0]!), port(parts[1]!)] : [];
    if (a === undefined || b === undefined) {
      throw validationError("ports", `Invalid port or range "${item}": use ports 1-65535 and ranges like 8000-8100`);
    }
    if (a > b) throw validationError("ports", `Invalid range "${item}": the first port must not be above the last`);
    ranges.push([a, b]);
  }
  return { text: ranges.map(([a, b]) => (a === b ? `${a}` : `${a}-${b}`)).join(","), ranges };
}

/** Distinct ports a spec covers (overlapping ranges counted once); undefined for the default list. */
export function portCount(spec: PortSpec): number | undefined {
  if (spec.ranges.length === 0) return undefined;
  const sorted = [...spec.ranges].sort((x, y) => x[0] - y[0]);
  let count = 0;
  let end = 0;
  for (const [a, b] of sorted) {
    if (b <= end) continue;
    count += b - Math.max(a, end + 1) + 1;
    end = b;
  }
  return count;
}
