// Unit-test wiring: the use cases on in-memory adapters, with a clock the test moves.
import { createLogger } from "@vulnscan/kit/logger";
import { BuiltinAnalyst } from "./ai/analyst.js";
import type { AiProvider } from "./ai/provider.js";
import { createFindingsDomain } from "./domain/index.js";
import type { PlanPort } from "./domain/ports.js";
import { exportWriters } from "./export/index.js";
import { MemoryAnalysisCache, MemoryCounts, MemoryCredits, MemoryFindings } from "./testing/memory.js";
import { MemoryRetestBudget, MemoryRetests } from "./testing/memory-retests.js";
import { MemoryPolicies, MemorySlaQueue } from "./testing/memory-sla.js";

export function testFindings(opts: { start?: Date; aiCredits?: number; ai?: AiProvider; retestsPerMonth?: number; policyRefreshBatch?: number } = {}) {
  let now = opts.start ?? new Date("2026-03-01T12:00:00.000Z");
  const clock = () => new Date(now);
  const findings = new MemoryFindings();
  findings.clock = clock;
  const repos = {
    findings,
    lists: findings,
    counts: new MemoryCounts(findings, clock),
    analyses: new MemoryAnalysisCache(),
    credits: new MemoryCredits(),
    policies: new MemoryPolicies(),
    slaQueue: new MemorySlaQueue(findings),
    retests: new MemoryRetests(),
    retestBudget: new MemoryRetestBudget(),
    retestPlans: { retestsPerMonth: async () => ({ unlimited: false, max: opts.retestsPerMonth ?? 5 }) },
  };
  const plans: PlanPort = { aiCredits: async () => ({ unlimited: false, max: opts.aiCredits ?? 3 }) };
  const domain = createFindingsDomain({
    ...repos,
    ai: opts.ai ?? new BuiltinAnalyst(),
    plans,
    writers: exportWriters,
    logger: createLogger("findings-test", "silent"),
    now: clock,
    ...(opts.policyRefreshBatch ? { policyRefreshBatch: opts.policyRefreshBatch } : {}),
  });
  return {
    ...domain,
    repos,
    now: clock,
    advance(ms: number) {
      now = new Date(now.getTime() + ms);
    },
  };
}
