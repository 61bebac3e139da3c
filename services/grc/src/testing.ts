// Unit-test wiring: the use cases on in-memory adapters, with a clock the test moves.
import { Catalogue, ComplianceMap } from "@vulnscan/compliance-catalogue";
import { createGrcDomain } from "./domain/index.js";
import { FakeMalwareScanner, MemoryGrcStores } from "./testing/memory.js";

const catalogue = Catalogue.load();
const mapping = ComplianceMap.load();

/** The EICAR anti-malware test file (harmless by design; every scanner detects it). */
export const EICAR = "X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*";

export async function testGrc(opts: { start?: Date; viewMaxAgeMs?: number } = {}) {
  let now = opts.start ?? new Date("2026-03-01T12:00:00.000Z");
  const stores = new MemoryGrcStores();
  const malware = new FakeMalwareScanner();
  const deps = { ...stores, catalogue, mapping: await mapping, malware, now: () => new Date(now), viewMaxAgeMs: opts.viewMaxAgeMs ?? 0 };
  const domain = createGrcDomain(deps);
  return {
    ...domain,
    /** Another replica: its own use cases (and caches) on the same stores. */
    replica: () => createGrcDomain(deps),
    stores,
    malware,
    /** Events of these types, in order. */
    eventsOf: (...types: string[]) => stores.events.filter((e) => types.includes(e.type)),
    advance(ms: number) {
      now = new Date(now.getTime() + ms);
    },
  };
}
