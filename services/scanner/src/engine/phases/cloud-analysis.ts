import { CLOUD_ATTRIBUTION, PROVIDER_NAMES } from "../cloud/checks.js";
import { CloudRanges } from "../cloud/ranges.js";
import { checkDatastore } from "../datastores/probe.js";
import type { PhaseHandler } from "../types.js";
import { detection } from "../web/check.js";

let ranges: CloudRanges | undefined;

/**
 * Provider attribution of every host from the shipped range files (no network), then the
 * unauthenticated-access checks on every datastore service enumeration identified.
 */
export const cloudAnalysis: PhaseHandler = async (ctx) => {
  ctx.setTool("cloud");
  ranges ??= CloudRanges.load();
  for (const host of ctx.hosts) {
    const hit = ranges.lookup(host.address);
    if (!hit) continue;
    host.provider = hit.provider;
    host.region = hit.region;
    await ctx.report(
      detection(CLOUD_ATTRIBUTION, {
        target: host.hostname ?? host.address,
        affectedComponent: host.address,
        detail: `${PROVIDER_NAMES[hit.provider]}${hit.region ? `, region ${hit.region}` : ""}${hit.service ? `, service ${hit.service}` : ""} (prefix ${hit.prefix}).`,
        evidence: { request: `lookup of ${host.address} in the published ${hit.provider} IP ranges`, response: JSON.stringify(hit) },
      }),
    );
  }
  ctx.setTool("datastores");
  for (const svc of ctx.services) {
    if (ctx.signal.aborted) return;
    const found = await checkDatastore(svc, { guard: ctx.guard, signal: ctx.signal });
    if (found) await ctx.report(found);
    if (!ctx.signal.aborted) ctx.covered?.(svc.host, svc.port, "datastore");
  }
};
