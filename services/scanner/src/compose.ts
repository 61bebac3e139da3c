import { Topics, type ServiceContext, type ServiceParts } from "@vulnscan/kit";
import type { Config } from "./config.js";

/** Stateless worker: consumes scan jobs, produces reports and detections. The engine lands with the scans issue. */
export function compose(_ctx: ServiceContext<Config>): ServiceParts {
  return { topics: [Topics.scanJobs, Topics.scanCancellations, Topics.scanReports, Topics.findingsDetected] };
}
