import { Topics, type ServiceContext, type ServiceParts } from "@vulnscan/kit";
import type { Config } from "./config.js";

/** Wiring: mongo → repositories → publisher → domain → rpc. Scans land with their own issue. */
export function compose(_ctx: ServiceContext<Config>): ServiceParts {
  return { topics: [Topics.scanEvents, Topics.scanJobs, Topics.scanCancellations, Topics.scanReports] };
}
