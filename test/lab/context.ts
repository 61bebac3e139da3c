import { EgressGuard, type Lookup } from "../../services/scanner/src/net/egress.js";
import type { DetectionDraft, Host, ScanContext, Service } from "../../services/scanner/src/engine/types.js";

/*
 * A ScanContext for running phase handlers directly against the lab: the egress guard limited
 * to the lab's networks, `report` collecting detections in memory, a logger that records lines.
 */

export interface TestContext extends ScanContext {
  tools: string[];
  lines: { level: string; obj: unknown; msg?: string }[];
  abort(): void;
}

export function labContext(opts: {
  target: string;
  ports: number[];
  allowedNetworks: string;
  lookup?: Lookup;
  hosts?: Host[];
  services?: Service[];
}): TestContext {
  const controller = new AbortController();
  const lines: TestContext["lines"] = [];
  const record = (level: string) => (obj: unknown, msg?: string) => void lines.push({ level, obj, msg });
  const log = { info: record("info"), warn: record("warn"), error: record("error"), debug: record("debug"), child: () => log } as unknown as ScanContext["log"];
  const detections: DetectionDraft[] = [];
  const tools: string[] = [];
  return {
    scanId: "lab-scan",
    orgId: "lab-org",
    target: opts.target,
    scanType: "full",
    ports: opts.ports,
    frameworks: [],
    signal: controller.signal,
    guard: new EgressGuard(opts.allowedNetworks, { lookup: opts.lookup }),
    log,
    hosts: opts.hosts ?? [],
    services: opts.services ?? [],
    detections,
    setTool: (t) => void tools.push(t),
    report: async (d) => void detections.push(d),
    tools,
    lines,
    abort: () => controller.abort(),
  };
}
