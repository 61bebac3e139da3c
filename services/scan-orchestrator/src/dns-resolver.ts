import dns from "node:dns/promises";
import type { Resolver } from "./domain/target.js";

/** The system resolver (getaddrinfo: /etc/hosts, then DNS), bounded in time. */
export const systemResolver = (timeoutMs = 5000): Resolver => ({
  async resolve(name) {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`resolving ${name} timed out`)), timeoutMs);
    });
    try {
      const found = await Promise.race([dns.lookup(name, { all: true, verbatim: true }), timeout]);
      return found.map((a) => a.address);
    } finally {
      clearTimeout(timer);
    }
  },
});
