/*
 * Test support, never imported by the service: every kind of finding the scanner can produce,
 * built by the scanner's own code (its templates, its built-in check catalogue, its CVE matching
 * on the shipped intelligence sample, its correlation and planning phases), as the analyst sees
 * them. The catalogue-wide test and the golden file read these, so a new template or check is
 * covered the day it is added.
 */
import { loadCheckCatalogue } from "../../../scanner/src/engine/catalogue.js";
import { correlation } from "../../../scanner/src/engine/phases/correlation.js";
import { remediationPlanning } from "../../../scanner/src/engine/phases/remediation-planning.js";
import { cveDetection } from "../../../scanner/src/engine/phases/vulnerability-scanning.js";
import type { DetectionDraft, ScanContext, Service } from "../../../scanner/src/engine/types.js";
import { detection } from "../../../scanner/src/engine/web/check.js";
import { IntelStore } from "../../../scanner/src/intel/store.js";
import { hitToDraft } from "../../../scanner/src/templates-engine/execute.js";
import { loadTemplates } from "../../../scanner/src/templates-engine/loader.js";
import type { Template } from "../../../scanner/src/templates-engine/schema.js";
import type { AnalysisInput } from "./provider.js";

/** The scan lab's weak host (test/lab: 10.231.N.2 in its network namespace). */
export const LAB_HOST = "10.231.1.2";

const INTEL_DIR = new URL("../../../scanner/data/intel", import.meta.url).pathname;

/** Services the lab's weak host shows, with the CPEs enumeration gives them (CVE matching input). */
const LAB_SERVICES: Service[] = [
  {
    host: LAB_HOST,
    port: 22,
    tls: false,
    name: "ssh",
    product: "OpenSSH",
    version: "7.2p2",
    banner: "SSH-2.0-OpenSSH_7.2p2 Ubuntu-4ubuntu2.10",
    cpe: "cpe:2.3:a:openbsd:openssh:7.2:p2:*:*:*:*:*:*",
  },
  {
    host: LAB_HOST,
    port: 21,
    tls: false,
    name: "ftp",
    product: "vsftpd",
    version: "2.3.4",
    banner: "220 (vsFTPd 2.3.4)",
    cpe: "cpe:2.3:a:beasts:vsftpd:2.3.4:*:*:*:*:*:*:*",
  },
  {
    host: LAB_HOST,
    port: 80,
    tls: false,
    name: "http",
    product: "Apache httpd",
    version: "2.4.49",
    banner: "Server: Apache/2.4.49",
    cpe: "cpe:2.3:a:apache:http_server:2.4.49:*:*:*:*:*:*:*",
  },
  {
    host: LAB_HOST,
    port: 8080,
    tls: false,
    name: "http",
    product: "nginx",
    version: "1.20.0",
    banner: "Server: nginx/1.20.0",
    cpe: "cpe:2.3:a:f5:nginx:1.20.0:*:*:*:*:*:*:*",
  },
  {
    host: LAB_HOST,
    port: 6379,
    tls: false,
    name: "redis",
    product: "Redis",
    version: "6.0.9",
    banner: "redis_version:6.0.9",
    cpe: "cpe:2.3:a:redis:redis:6.0.9:*:*:*:*:*:*:*",
  },
];

/** Values the lab's servers give for the templates' extractors. */
const OBSERVED: Record<string, string> = {
  redis_version: "6.0.9",
  memcached_version: "1.6.18",
  openssh_version: "7.2p2",
  php_version: "7.0.33",
  server: "Apache/2.4.18 (Ubuntu)",
  server_version: "5.7.33",
  secret_keys: "DB_PASSWORD, APP_KEY",
  allow: "GET, POST, PUT, DELETE, OPTIONS",
};

const DATASTORE_PORTS: Record<string, number> = { redis: 6379, mongodb: 27017, elasticsearch: 9200, memcached: 11211 };

/** What a detection becomes in findings, as the analyst reads it (domain/analysis.ts analysisInput). */
export function inputOf(d: DetectionDraft, intel?: IntelStore): AnalysisInput {
  const epss = d.cveIds.map((c) => intel?.epss(c)?.epss).filter((x): x is number => x !== undefined);
  return {
    finding_id: `finding_${d.templateId}`,
    title: d.title,
    severity: d.severity,
    cvss_score: d.cvssScore,
    cvss_vector: d.cvssVector,
    epss_score: epss.length ? Math.max(...epss) : null,
    kev: d.cveIds.some((c) => intel?.kev(c) !== undefined),
    cwe_ids: d.cweIds,
    cve_ids: d.cveIds,
    tool: d.tool,
    template_id: d.templateId,
    target: d.target,
    affected_component: d.affectedComponent,
    description: d.description,
    impact: d.impact,
    remediation_summary: d.remediation.summary,
    remediation_steps: d.remediation.steps,
    references: d.remediation.references,
    evidence_request: d.evidence.request,
    evidence_response: d.evidence.response,
    confidence: d.confidence,
  };
}

/** A template's detection as its engine reports it: location and evidence shaped like a real hit. */
function templateDraft(t: Template): DetectionDraft {
  const port = t.services?.ports[0] ?? 80;
  const name = t.services?.names[0] ?? "http";
  const service: Service = { host: LAB_HOST, port, tls: false, name };
  const socket = t.tcp ?? t.tls;
  const path = t.http?.[0]?.path[0] ?? "/";
  const location = socket ? `tcp://${LAB_HOST}:${port}` : `http://${LAB_HOST}${path}`;
  const probe = t.http?.[0] ?? socket?.[0];
  const words = (probe?.matchers ?? []).filter((m) => !m.negative).flatMap((m) => ("words" in m ? (m.words ?? []) : []));
  // What a live hit extracts (the engine appends it to the description as "Observed: ...").
  const extracted: Record<string, string[]> = Object.fromEntries(
    (probe?.extractors ?? []).map((e) => [e.name ?? "value", [OBSERVED[e.name ?? ""] ?? "observed"]]),
  );
  return hitToDraft({
    template: t,
    service,
    location,
    request: socket ? `${socket[0]?.inputs?.map((i) => i.data).join("") || "(read banner)"}` : `GET ${path} HTTP/1.1\r\nHost: ${LAB_HOST}`,
    response: [...words.slice(0, 3), ...Object.entries(extracted).map(([k, v]) => `${k}: ${v.join(", ")}`)].join("\n") || "HTTP/1.1 200 OK",
    extracted,
  });
}

function checkComponent(tool: string, id: string): string {
  if (tool === "tls") return `${LAB_HOST}:443`;
  if (tool === "ssh") return id === "ssh-password-auth" ? `ssh://${LAB_HOST}:2222` : `OpenSSH 7.2p2 on ${LAB_HOST}:22`;
  if (tool === "datastores") return `tcp://${LAB_HOST}:${DATASTORE_PORTS[id.replace(/^datastore-|-unauthenticated$/g, "")] ?? 0}`;
  if (tool === "web") return `http://${LAB_HOST}/`;
  return LAB_HOST;
}

/** A scan context with just what the analysis phases read, collecting what they report. */
function phaseContext(detections: DetectionDraft[]): ScanContext & { reported: DetectionDraft[] } {
  const reported: DetectionDraft[] = [];
  return {
    target: LAB_HOST,
    signal: new AbortController().signal,
    hosts: [{ address: LAB_HOST }],
    services: LAB_SERVICES,
    detections,
    reported,
    setTool() {},
    async report(d: DetectionDraft) {
      reported.push(d);
      detections.push(d);
    },
  } as unknown as ScanContext & { reported: DetectionDraft[] };
}

export interface CatalogueFinding {
  /** How the scanner produced it: `template`, `check:<tool>`, `cve-match`, `correlator`, `remediation-planner`. */
  engine: string;
  input: AnalysisInput;
}

/** One finding per template, per built-in check, per CVE the lab's services match, and per analysis phase. */
export async function catalogueFindings(): Promise<CatalogueFinding[]> {
  const templates = await loadTemplates();
  const intel = await IntelStore.load(INTEL_DIR);
  const drafts: { engine: string; d: DetectionDraft }[] = [];
  for (const t of templates) drafts.push({ engine: "template", d: templateDraft(t) });
  for (const [id, def] of loadCheckCatalogue()) {
    const component = checkComponent(def.tool, id);
    drafts.push({
      engine: `check:${def.tool}`,
      d: detection(def, {
        target: LAB_HOST,
        affectedComponent: component,
        evidence: { request: `${def.tool} check of ${component}`, response: def.title },
        ...(id === "ssh-terrapin" ? { cveIds: ["CVE-2023-48795"] } : {}),
      }),
    });
  }
  for (const s of LAB_SERVICES) for (const m of intel.matchCpe(s.cpe ?? "")) drafts.push({ engine: "cve-match", d: cveDetection(m, s) });

  // The analysis phases over a scan that found all of the above (plus the same CVE on a second host).
  const scanned = drafts.map((x) => x.d);
  const ctx = phaseContext([...scanned, { ...cveDetection(intel.matchCpe(LAB_SERVICES[0]!.cpe!)[0]!, { ...LAB_SERVICES[0]!, port: 2200 }) }]);
  await correlation({ templates })(ctx);
  await remediationPlanning(ctx);
  for (const d of ctx.reported) drafts.push({ engine: d.tool, d });
  return drafts.map(({ engine, d }) => ({ engine, input: inputOf(d, intel) }));
}

/** The four findings the issue names, as a lab scan of the weak host reports them. */
export async function labFindings(): Promise<Record<"redis" | "env" | "expiredCertificate" | "opensshCve", AnalysisInput>> {
  const all = await catalogueFindings();
  const by = (pred: (f: CatalogueFinding) => boolean) => {
    const f = all.find(pred);
    if (!f) throw new Error("catalogue finding missing");
    return f.input;
  };
  return {
    redis: by((f) => f.input.template_id === "redis-unauthenticated" && f.engine === "template"),
    env: by((f) => f.input.template_id === "env-file-secrets" && f.engine === "template"),
    expiredCertificate: by((f) => f.input.template_id === "tls-cert-expired"),
    // A server-side flaw the banner's version range establishes (CVE-2023-38408, first by CVSS, is in ssh-agent).
    opensshCve: by((f) => f.engine === "cve-match" && f.input.template_id === "cve:CVE-2016-6515"),
  };
}
