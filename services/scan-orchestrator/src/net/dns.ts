import dns from "node:dns/promises";
import type { Resolver } from "../domain/target.js";

/*
 * Names as the orchestrator reads them: a scan target's addresses, and the TXT and PTR records
 * that prove a target (issue 29). DNS_SERVERS points every look-up at given resolvers (tests run
 * their own on loopback; an operator may want a validating resolver); without it, addresses
 * come from the system (getaddrinfo: /etc/hosts, then DNS) and records from its resolvers.
 */

const NO_ANSWER = new Set(["ENOTFOUND", "ENODATA", "ENONAME", "NXDOMAIN", "ENOTIMP"]);

async function bounded<T>(what: string, timeoutMs: number, run: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out`)), timeoutMs);
  });
  try {
    return await Promise.race([run(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** [] for "no such name / no such record"; other failures (timeouts, refused servers) throw. */
async function orNone<T>(run: () => Promise<T[]>): Promise<T[]> {
  try {
    return await run();
  } catch (err) {
    if (NO_ANSWER.has((err as { code?: string }).code ?? "")) return [];
    throw err;
  }
}

export interface DnsClient extends Resolver {
  txt(name: string): Promise<string[]>;
  reverse(address: string): Promise<string[]>;
}

/** servers: "host:port" or "host" items (DNS_SERVERS); empty = the system's. */
export function dnsClient(servers: string[], timeoutMs = 5000): DnsClient {
  const resolver = new dns.Resolver({ timeout: Math.min(timeoutMs, 2000), tries: 2 });
  if (servers.length) resolver.setServers(servers);
  return {
    resolve: (name) =>
      bounded(`resolving ${name}`, timeoutMs, async () => {
        if (!servers.length) return (await dns.lookup(name, { all: true, verbatim: true })).map((a) => a.address);
        const [v4, v6] = await Promise.all([orNone(() => resolver.resolve4(name)), orNone(() => resolver.resolve6(name))]);
        return [...v4, ...v6];
      }),
    txt: (name) => bounded(`TXT ${name}`, timeoutMs, async () => (await orNone(() => resolver.resolveTxt(name))).map((chunks) => chunks.join(""))),
    reverse: (address) => bounded(`PTR ${address}`, timeoutMs, () => orNone(() => resolver.reverse(address))),
  };
}
