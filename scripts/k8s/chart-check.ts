// The chart's checks: helm lint --strict and helm template for the default values and every
// deploy/values-*.yaml, then every rendered manifest sent to a real kube-apiserver as a
// server-side apply with dry-run and strict field validation (unknown or duplicate fields are
// errors, not warnings). Used by test/k8s/chart.test.ts.

import fs from "node:fs";
import path from "node:path";
import { parseAllDocuments } from "yaml";
import { ROOT } from "../lib/root.ts";
import { run } from "../stack/process.ts";
import type { ApiServer, KubeResponse } from "./apiserver.ts";
import { KUBE_VERSION } from "./tools.ts";

export const CHART_DIR = path.join(ROOT, "charts", "vulnscan");
export const RELEASE = "vulnscan";
export const NAMESPACE = "vulnscan";

export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string };
  [field: string]: unknown;
}

export interface ValuesCase {
  /** "defaults" or the file's name without .yaml. */
  label: string;
  /** helm arguments selecting the values (none for the defaults). */
  args: string[];
}

/** The default values and every deploy/values-*.yaml. */
export function valuesCases(): ValuesCase[] {
  const deploy = path.join(ROOT, "deploy");
  const files = fs
    .readdirSync(deploy)
    .filter((f) => /^values-.+\.yaml$/.test(f))
    .sort();
  return [{ label: "defaults", args: [] }, ...files.map((f) => ({ label: path.basename(f, ".yaml"), args: ["-f", path.join(deploy, f)] }))];
}

/** Folders under services/ and gateway/ that are deployables (they have a src/main.ts). */
export function deployables(): string[] {
  const services = fs.readdirSync(path.join(ROOT, "services")).filter((d) => fs.existsSync(path.join(ROOT, "services", d, "src", "main.ts")));
  return ["gateway", ...services.sort()];
}

export function parseManifests(text: string): Manifest[] {
  const out: Manifest[] = [];
  for (const doc of parseAllDocuments(text)) {
    if (doc.errors.length) throw new Error(`rendered YAML does not parse: ${doc.errors[0]?.message}`);
    const obj = doc.toJS({ maxAliasCount: -1 }) as Manifest | null;
    if (obj) out.push(obj);
  }
  return out;
}

/** helm lint --strict, then helm template; returns the rendered objects. */
export async function lintAndRender(helm: string, values: ValuesCase, extra: string[] = []): Promise<Manifest[]> {
  const common = ["--kube-version", KUBE_VERSION, ...values.args, ...extra];
  await run(helm, ["lint", CHART_DIR, "--strict", ...common]);
  return parseManifests(await run(helm, ["template", RELEASE, CHART_DIR, "--namespace", NAMESPACE, ...common]));
}

/** "3 Deployment, 2 Service" style counts, by kind. */
export function countKinds(manifests: Manifest[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const m of manifests) counts[m.kind] = (counts[m.kind] ?? 0) + 1;
  return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => a.localeCompare(b)));
}

interface ResourceInfo {
  resource: string;
  namespaced: boolean;
}

function expectOk(what: string, res: KubeResponse): void {
  if (res.status >= 300) throw new Error(`${what}: HTTP ${res.status} ${JSON.stringify(res.body)}`);
}

/** Kind → REST resource, read from the server's discovery documents (so CRDs are included). */
export async function discover(api: ApiServer): Promise<Map<string, ResourceInfo>> {
  const map = new Map<string, ResourceInfo>();
  const groupVersions = ["v1"];
  const apis = await api.request("GET", "/apis");
  expectOk("GET /apis", apis);
  for (const group of (apis.body as { groups: { versions: { groupVersion: string }[] }[] }).groups) {
    for (const v of group.versions) groupVersions.push(v.groupVersion);
  }
  for (const gv of groupVersions) {
    const res = await api.request("GET", gv === "v1" ? "/api/v1" : `/apis/${gv}`);
    expectOk(`GET ${gv}`, res);
    for (const r of (res.body as { resources: { name: string; kind: string; namespaced: boolean }[] }).resources) {
      if (!r.name.includes("/")) map.set(`${gv}/${r.kind}`, { resource: r.name, namespaced: r.namespaced });
    }
  }
  return map;
}

/** Creates the CRDs (for real) and waits until each is Established. */
export async function installCrds(api: ApiServer, files: string[]): Promise<void> {
  const names: string[] = [];
  for (const file of files) {
    for (const crd of parseManifests(fs.readFileSync(file, "utf8"))) {
      const res = await api.request("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd);
      if (res.status !== 409) expectOk(`create CRD ${crd.metadata.name}`, res);
      names.push(crd.metadata.name);
    }
  }
  for (const name of names) {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const res = await api.request("GET", `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${name}`);
      const conditions = (res.body as { status?: { conditions?: { type: string; status: string }[] } }).status?.conditions ?? [];
      if (conditions.some((c) => c.type === "Established" && c.status === "True")) break;
      if (Date.now() > deadline) throw new Error(`CRD ${name} not Established after 60 s`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

export async function ensureNamespace(api: ApiServer, name: string): Promise<void> {
  const res = await api.request("POST", "/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name } });
  if (res.status !== 409) expectOk(`create namespace ${name}`, res);
}

export interface ApplyOutcome {
  manifest: Manifest;
  accepted: boolean;
  /** Why it was rejected, or the server's warnings. */
  messages: string[];
}

/** Server-side apply, dry-run, strict field validation. Accepted only with no error and no warning. */
export async function applyDryRun(api: ApiServer, resources: Map<string, ResourceInfo>, m: Manifest): Promise<ApplyOutcome> {
  const info = resources.get(`${m.apiVersion}/${m.kind}`);
  if (!info) return { manifest: m, accepted: false, messages: [`the API server serves no ${m.kind} in ${m.apiVersion}`] };
  const base = m.apiVersion.includes("/") ? `/apis/${m.apiVersion}` : `/api/${m.apiVersion}`;
  const ns = info.namespaced ? `/namespaces/${m.metadata.namespace ?? NAMESPACE}` : "";
  const query = "dryRun=All&fieldManager=vulnscan-chart-check&fieldValidation=Strict&force=true";
  const res = await api.request("PATCH", `${base}${ns}/${info.resource}/${m.metadata.name}?${query}`, m, "application/apply-patch+yaml");
  const messages = [...res.warnings];
  if (res.status >= 300) messages.unshift((res.body as { message?: string }).message ?? JSON.stringify(res.body));
  return { manifest: m, accepted: res.status < 300 && res.warnings.length === 0, messages };
}

export const describe = (m: Manifest): string => `${m.kind}/${m.metadata.name}`;
