import { Topics, type ServiceContext, type ServiceParts } from "@vulnscan/kit";
import type { Config } from "./config.js";

/** Wiring: mongo → repositories → dispatcher → rpc. Webhooks land with their own issue. */
export function compose(_ctx: ServiceContext<Config>): ServiceParts {
  return { topics: [Topics.scanEvents, Topics.findingEvents, Topics.grcEvents, Topics.authEvents, Topics.webhookEvents] };
}
