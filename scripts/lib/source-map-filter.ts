// Source maps that name our own lines only: esbuild maps every byte of a bundle, dependencies
// included, and Node 20 under --enable-source-maps holds each map it loads decoded (tens of MiB
// for a bundle's dependencies), while stack traces only need our sources' lines.
const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const DIGIT = new Int8Array(128).fill(-1);
for (let i = 0; i < BASE64.length; i++) DIGIT[BASE64.charCodeAt(i)] = i;

function decodeSegment(text: string): number[] {
  const values: number[] = [];
  let value = 0;
  let shift = 0;
  for (let i = 0; i < text.length; i++) {
    const digit = DIGIT[text.charCodeAt(i)] as number;
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
    } else {
      values.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return values;
}

function encodeSegment(values: number[]): string {
  let text = "";
  for (const v of values) {
    let rest = v < 0 ? (-v << 1) | 1 : v << 1;
    do {
      const digit = rest & 31;
      rest >>>= 5;
      text += BASE64[rest > 0 ? digit | 32 : digit];
    } while (rest > 0);
  }
  return text;
}

export interface SourceMap {
  version: number;
  sources: string[];
  names: string[];
  mappings: string;
  [key: string]: unknown;
}

/** The map with only the mappings into sources `keep` accepts, and only those sources and names. */
export function keepMappings(map: SourceMap, keep: (source: string) => boolean): SourceMap {
  const sources: string[] = [];
  const names: string[] = [];
  const sourceIndex = new Map<number, number>();
  const nameIndex = new Map<number, number>();
  const indexIn = (table: Map<number, number>, list: string[], from: string[], i: number) => {
    let j = table.get(i);
    if (j === undefined) {
      j = list.push(from[i] as string) - 1;
      table.set(i, j);
    }
    return j;
  };
  // Absolute positions read (every field but the column is relative to the previous segment
  // of the whole map) and the last ones written, to encode the kept segments' deltas.
  const read = [0, 0, 0, 0];
  const written = [0, 0, 0, 0];
  // Whether the last segment written maps into a kept source. Node's lookup answers a position
  // with the last mapping at or before it, on its line or an earlier one: a dependency's code
  // after ours would be named by our preceding line, so a segment that maps nowhere (column
  // only) is written where the kept mapping ends.
  let mapped = false;
  const lines = map.mappings.split(";").map((line) => {
    let column = 0;
    let writtenColumn = 0;
    const kept: string[] = [];
    for (const segment of line ? line.split(",") : []) {
      const v = decodeSegment(segment);
      column += v[0] as number;
      if (v.length >= 4) for (let i = 1; i < v.length; i++) read[i - 1] = (read[i - 1] as number) + (v[i] as number);
      const [source, srcLine, srcColumn, name] = read as [number, number, number, number];
      if (v.length < 4 || !keep(map.sources[source] as string)) {
        if (mapped) {
          kept.push(encodeSegment([column - writtenColumn]));
          writtenColumn = column;
          mapped = false;
        }
        continue;
      }
      mapped = true;
      const out = [indexIn(sourceIndex, sources, map.sources, source), srcLine, srcColumn];
      if (v.length === 5) out.push(indexIn(nameIndex, names, map.names, name));
      const deltas = [column - writtenColumn, ...out.map((x, i) => x - (written[i] as number))];
      out.forEach((x, i) => {
        written[i] = x;
      });
      writtenColumn = column;
      kept.push(encodeSegment(deltas));
    }
    return kept.join(",");
  });
  return { ...map, sources, names, mappings: lines.join(";") };
}
