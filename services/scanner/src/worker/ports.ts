/*
 * The job's `ports` field ("22,80,443,8000-8100"), honoured exactly; empty means the default
 * list below: the most common TCP services (nmap's most frequently open ports, plus the
 * datastores and admin consoles the engine has checks for).
 */

export const DEFAULT_PORTS: readonly number[] = [
  7, 20, 21, 22, 23, 25, 26, 37, 53, 79, 80, 81, 88, 106, 110, 111, 113, 119, 135, 139, 143, 144, 179, 199, 389, 427, 443, 444, 445, 465, 513, 514, 515, 543,
  544, 548, 554, 587, 631, 636, 646, 873, 990, 993, 995, 1025, 1026, 1027, 1028, 1029, 1080, 1110, 1433, 1521, 1720, 1723, 1755, 1900, 2000, 2001, 2049, 2121,
  2375, 2376, 2717, 3000, 3128, 3306, 3389, 3986, 4899, 5000, 5009, 5051, 5060, 5101, 5190, 5357, 5432, 5601, 5631, 5666, 5672, 5800, 5900, 5984, 6000, 6001,
  6379, 6443, 6646, 7070, 8000, 8008, 8009, 8080, 8081, 8443, 8888, 9000, 9090, 9092, 9100, 9200, 9300, 9443, 9999, 10000, 11211, 15672, 27017, 27018, 32768,
  49152, 49153, 49154, 49155, 49156, 49157,
];

export class PortSpecError extends Error {
  override name = "PortSpecError";
}

/** Every port the spec names, ascending, each once; the default list when the spec is empty. */
export function parsePortSpec(spec: string): number[] {
  const text = spec.trim();
  if (!text) return [...DEFAULT_PORTS];
  const ports = new Set<number>();
  for (const raw of text.split(",")) {
    const item = raw.trim();
    const m = /^(\d{1,5})(?:\s*-\s*(\d{1,5}))?$/.exec(item);
    const a = Number(m?.[1]);
    const b = m?.[2] !== undefined ? Number(m[2]) : a;
    if (!m || a < 1 || b > 65535 || a > b) throw new PortSpecError(`invalid port or range "${item}"`);
    for (let p = a; p <= b; p++) ports.add(p);
  }
  return [...ports].sort((x, y) => x - y);
}
