import net from "node:net";
import type { Logger } from "@vulnscan/kit";
import type { IntelStore } from "../intel/store.js";
import { EgressDenied, type EgressGuard } from "../net/egress.js";
import { ConnectProber, type ProbeOutcome } from "../net/tcp-probe.js";
import type { Template } from "../templates-engine/schema.js";
import { checkDatastore } from "./datastores/probe.js";
import { TELNET_EXPOSED } from "./fingerprint/checks.js";
import { identifyService } from "./fingerprint/identify.js";
import { componentLocation } from "./identity.js";
import { vulnerabilityScanning } from "./phases/vulnerability-scanning.js";
import { analyzeSshService } from "./ssh/analyze.js";
import { analyzeTlsService } from "./tls/analyze.js";
import type { DetectionDraft, ScanContext, Service } from "./types.js";
import { detection } from "./web/check.js";
import { analyzeWebService } from "./web/analyze.js";

/*
 * A retest: only the check that produced one finding, against its component (one host, one
 * port), judged by what the component answered. The verdict is honest about what was seen:
 * `fixed` only when the check ran, the component answered before and after it, and the check no
 * longer matched; `still_vulnerable` when it matched (with the fresh evidence); `inconclusive`
 * with the reason when the component could not be reached, refused, or did not answer in time.
 * Nothing is published as a detection: the result goes back to findings as one RetestResult.
 */

export interface RetestSpec {
  retestId: string;
  orgId: string;
  findingId: string;
  /** The finding's target: host name or address. */
  target: string;
  templateId: string;
  tool: string;
  affectedComponent: string;
  port: number;
  deadline?: Date;
}

export type RetestVerdict = "fixed" | "still_vulnerable" | "inconclusive";
export type InconclusiveReason = "unreachable" | "timeout" | "refused";

export interface RetestOutcome {
  verdict: RetestVerdict;
  reason: InconclusiveReason | "";
  detail: string;
  evidence: { request: string; response: string };
}

export interface RetestDeps {
  guard: EgressGuard;
  log: Logger;
  templates: Template[];
  intel: IntelStore;
  /** Connect timeout of the reachability probes. */
  probeTimeoutMs?: number;
  /** Per-request timeout of template probes. */
  checkTimeoutMs?: number;
}

/** Which engine ran a check, from the finding's tool (and its template id for version matches). */
export type CheckKind = "template" | "cve" | "web" | "tls" | "ssh" | "datastore" | "telnet";

export function checkKindOf(tool: string, templateId: string): CheckKind | undefined {
  if (templateId.startsWith("cve:") || tool === "cve-match") return "cve";
  if (tool === "templates") return "template";
  if (tool === "web" || tool === "tls" || tool === "ssh") return tool;
  if (tool === "datastores") return "datastore";
  if (tool === "portscan" && templateId === TELNET_EXPOSED.templateId) return "telnet";
  return undefined;
}

const inconclusive = (reason: InconclusiveReason, detail: string): RetestOutcome => ({
  verdict: "inconclusive",
  reason,
  detail,
  evidence: { request: "", response: "" },
});

function reasonOf(outcome: ProbeOutcome): InconclusiveReason {
  if (outcome === "refused") return "refused";
  if (outcome === "timeout" || outcome === "aborted") return "timeout";
  return "unreachable";
}

/** One TCP connect to the component's port: whether something is listening there now. */
function probePort(guard: EgressGuard, address: string, port: number, timeoutMs: number, signal: AbortSignal): Promise<ProbeOutcome> {
  const prober = new ConnectProber(guard, { signal });
  return new Promise<ProbeOutcome>((resolve) => {
    try {
      prober.probe(address, port, timeoutMs, (r) => resolve(r.outcome));
    } catch (err) {
      resolve(err instanceof EgressDenied ? "unreachable" : "error");
    }
  }).finally(() => prober.close());
}

/** The check of `kind` against one identified service; every draft it reports. */
async function runCheck(kind: CheckKind, spec: RetestSpec, svc: Service, deps: RetestDeps, signal: AbortSignal): Promise<DetectionDraft[]> {
  const opts = { guard: deps.guard, signal };
  switch (kind) {
    case "web":
      return analyzeWebService(svc, { ...opts, hostHasHttps: svc.tls });
    case "tls":
      return svc.tls ? analyzeTlsService(svc, opts) : [];
    case "ssh":
      return svc.name === "ssh" ? analyzeSshService(svc, opts) : [];
    case "datastore": {
      const d = await checkDatastore(svc, opts);
      return d ? [d] : [];
    }
    case "telnet":
      return svc.name === "telnet"
        ? [
            detection(TELNET_EXPOSED, {
              target: spec.target,
              affectedComponent: spec.affectedComponent,
              evidence: { request: `TCP connect to ${svc.host}:${svc.port}, wait for the server to speak`, response: svc.banner ?? "" },
            }),
          ]
        : [];
    case "template":
    case "cve": {
      // The phase's own handler over this one service: templates narrowed to the finding's one
      // template (and no version matching, by hiding the CPE), or version matching alone.
      const templates = kind === "template" ? deps.templates.filter((t) => t.id === spec.templateId) : [];
      const service = kind === "template" ? { ...svc, cpe: undefined } : svc;
      const drafts: DetectionDraft[] = [];
      const ctx = {
        scanId: spec.retestId,
        orgId: spec.orgId,
        target: spec.target,
        scanType: "quick",
        ports: [spec.port],
        frameworks: [],
        signal,
        guard: deps.guard,
        log: deps.log,
        hosts: [{ address: svc.host, ...(svc.hostname ? { hostname: svc.hostname } : {}), alive: true }],
        services: [service],
        detections: drafts,
        setTool: () => undefined,
        report: async (d: DetectionDraft) => {
          drafts.push(d);
        },
      } satisfies ScanContext;
      await vulnerabilityScanning({ templates, intel: deps.intel, ...(deps.checkTimeoutMs ? { timeoutMs: deps.checkTimeoutMs } : {}) })(ctx);
      return drafts;
    }
  }
}

/**
 * Runs one retest. Never throws for what the target does: every way the component fails to
 * answer is an `inconclusive` verdict with its reason.
 */
export async function runRetest(spec: RetestSpec, deps: RetestDeps, outer?: AbortSignal): Promise<RetestOutcome> {
  const kind = checkKindOf(spec.tool, spec.templateId);
  const component = `${spec.affectedComponent} (check ${spec.templateId})`;
  if (!kind) return inconclusive("unreachable", `The check ${spec.templateId} (tool ${spec.tool}) cannot be run on its own.`);
  const budget = spec.deadline ? spec.deadline.getTime() - Date.now() : 60_000;
  if (budget <= 0) return inconclusive("timeout", "The retest reached its deadline before it started.");
  const signal = AbortSignal.any([AbortSignal.timeout(budget), ...(outer ? [outer] : [])]);
  const probeMs = deps.probeTimeoutMs ?? 3000;

  let address: string | undefined;
  try {
    address = (await deps.guard.resolve(spec.target))[0];
  } catch {
    address = undefined;
  }
  if (!address)
    return inconclusive(
      "unreachable",
      net.isIP(spec.target)
        ? `${spec.target} is outside the networks the scanner may reach.`
        : `${spec.target} did not resolve to an address the scanner may reach.`,
    );

  const before = await probePort(deps.guard, address, spec.port, probeMs, signal);
  if (before !== "open") return inconclusive(reasonOf(before), `${address}:${spec.port} did not accept a connection (${before}); the check did not run.`);

  const hostname = net.isIP(spec.target) ? undefined : spec.target;
  let drafts: DetectionDraft[];
  let svc: Service;
  try {
    svc = await identifyService({ host: address, ...(hostname ? { hostname } : {}), port: spec.port }, { guard: deps.guard, signal });
    drafts = await runCheck(kind, spec, svc, deps, signal);
  } catch (err) {
    if (signal.aborted) return inconclusive("timeout", `The check did not finish in time on ${component}.`);
    deps.log.warn({ err: (err as Error).message, retest_id: spec.retestId }, "retest check failed");
    return inconclusive("unreachable", `The check could not complete against ${component}: the connection failed.`);
  }
  if (signal.aborted) return inconclusive("timeout", `The check did not finish in time on ${component}.`);
  // A port that accepts connections but says nothing (a hung or paused service) is no answer:
  // a check that then matches nothing proves nothing.
  if (!answered(svc)) return inconclusive("timeout", `${address}:${spec.port} accepted the connection but the service did not answer; no verdict.`);

  const hit = drafts.find((d) => sameWeakness(d, spec) && d.severity !== "info");
  if (hit)
    return { verdict: "still_vulnerable", reason: "", detail: `${hit.title}: the check matched again on ${spec.affectedComponent}.`, evidence: hit.evidence };

  // "No match" must be an answer, not silence: the service has to still answer after the check.
  const after = await probePort(deps.guard, address, spec.port, probeMs, signal);
  if (after !== "open") return inconclusive(reasonOf(after), `${address}:${spec.port} stopped answering during the check (${after}); no verdict.`);
  const again = await identifyService({ host: address, ...(hostname ? { hostname } : {}), port: spec.port }, { guard: deps.guard, signal }).catch(
    () => undefined,
  );
  if (!again || !answered(again) || signal.aborted) return inconclusive("timeout", `${address}:${spec.port} stopped answering during the check; no verdict.`);
  const seen = [svc.name, svc.product, svc.version].filter(Boolean).join(" ") || "a service";
  return {
    verdict: "fixed",
    reason: "",
    detail: `The check ${spec.templateId} ran against ${spec.affectedComponent}; ${seen} answered and the check no longer matched.`,
    evidence: {
      request: `retest of ${spec.templateId} on ${address}:${spec.port}`,
      response: svc.banner ? `service: ${seen}\nbanner: ${svc.banner.slice(0, 500)}` : `service: ${seen}`,
    },
  };
}

/** The service said something: identification named it or read a banner. */
const answered = (svc: Service) => Boolean(svc.name || svc.banner);

/**
 * The same check on the same component, whatever string the engine writes for the component
 * (identity.ts): the finding's template id (or, for a version match, its CVE), the same port and
 * the same normalised location.
 */
export function sameWeakness(
  d: Pick<DetectionDraft, "templateId" | "cveIds" | "affectedComponent">,
  spec: Pick<RetestSpec, "templateId" | "affectedComponent">,
): boolean {
  const cve = spec.templateId.startsWith("cve:") ? spec.templateId.slice(4).toUpperCase() : undefined;
  const check = d.templateId === spec.templateId || (cve !== undefined && d.cveIds.some((c) => c.toUpperCase() === cve));
  if (!check) return false;
  const a = componentLocation(d.affectedComponent);
  const b = componentLocation(spec.affectedComponent);
  return a.port === b.port && a.path === b.path;
}
