// The Helm chart proven against a real Kubernetes API server (issue 15): helm lint --strict and
// helm template for the default values and every deploy/values-*.yaml, then every rendered
// object server-side applied (dry-run, strict field validation) to kube-apiserver of the oldest
// Kubernetes the chart supports, with the KEDA and Prometheus Operator CRDs installed from their
// projects' Go modules. helm, kube-apiserver and etcd are built by scripts/k8s/tools.ts.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiServer, startApiServer } from "../../scripts/k8s/apiserver.ts";
import {
  type ApplyOutcome,
  applyDryRun,
  countKinds,
  deployables,
  describe as name,
  discover,
  ensureNamespace,
  installCrds,
  lintAndRender,
  type Manifest,
  NAMESPACE,
  RELEASE,
  valuesCases,
} from "../../scripts/k8s/chart-check.ts";
import { chartCrds, ensureHelm, KUBE_VERSION } from "../../scripts/k8s/tools.ts";

const log = (line: string) => console.log(`[k8s] ${line}`);

describe(`charts/vulnscan on kube-apiserver v${KUBE_VERSION}`, () => {
  let helm: string;
  let api: ApiServer | undefined;
  let resources: Awaited<ReturnType<typeof discover>>;
  const rendered = new Map<string, Manifest[]>();

  // A cold machine builds helm, kube-apiserver and etcd from the Go module proxy first.
  beforeAll(async () => {
    helm = await ensureHelm(log);
    api = await startApiServer(log);
    await installCrds(api, await chartCrds());
    await ensureNamespace(api, NAMESPACE);
    resources = await discover(api);
  }, 30 * 60_000);

  afterAll(async () => {
    await api?.stop();
  }, 60_000);

  for (const values of valuesCases()) {
    it(`${values.label}: helm lint --strict, helm template, every object accepted by the API server`, async () => {
      const manifests = await lintAndRender(helm, values);
      rendered.set(values.label, manifests);
      const outcomes: ApplyOutcome[] = [];
      for (const m of manifests) outcomes.push(await applyDryRun(api as ApiServer, resources, m));
      const rejected = outcomes.filter((o) => !o.accepted);
      const kinds = Object.entries(countKinds(manifests))
        .map(([kind, n]) => `${n} ${kind}`)
        .join(", ");
      log(`${values.label}: ${outcomes.length - rejected.length} of ${manifests.length} manifests accepted, ${rejected.length} rejected (${kinds})`);
      for (const o of rejected) log(`  rejected ${name(o.manifest)}: ${o.messages.join("; ")}`);
      expect(rejected.map((o) => `${name(o.manifest)}: ${o.messages.join("; ")}`)).toEqual([]);
      expect(manifests.length).toBeGreaterThan(0);
    }, 120_000);
  }

  it("the API server's strict validation rejects an unknown field (so acceptance above means something)", async () => {
    const deployment = (rendered.get("defaults") ?? []).find((m) => m.kind === "Deployment");
    expect(deployment).toBeDefined();
    const broken = structuredClone(deployment as Manifest) as Manifest & { spec: { template: { spec: { containers: Record<string, unknown>[] } } } };
    (broken.spec.template.spec.containers[0] as Record<string, unknown>).imagePullPolcy = "Always";
    const outcome = await applyDryRun(api as ApiServer, resources, broken);
    expect(outcome.accepted).toBe(false);
    expect(outcome.messages.join(" ")).toMatch(/imagePullPolcy: field not declared in schema/);
  });

  it("refuses scaling values that cannot work (KEDA with the HPA, more replicas than partitions, zero for a called service)", async () => {
    const refused = (sets: string[]) => lintAndRender(helm, { label: "refused", args: sets.flatMap((v) => ["--set", v]) });
    await expect(refused(["scanner.keda.enabled=true", "scanner.autoscaling.enabled=true"])).rejects.toThrow(/KEDA owns the HPA/);
    await expect(refused(["scanner.keda.enabled=true", "scanner.keda.maxReplicas=7", "kafka.partitions=6"])).rejects.toThrow(/above kafka.partitions/);
    await expect(refused(["webhookDispatcher.keda.enabled=true", "webhookDispatcher.keda.minReplicas=0"])).rejects.toThrow(/cannot scale to zero/);
    await expect(refused(["findings.enabled=false"])).rejects.toThrow(/scanOrchestrator.calls: "findings" is not an enabled service/);
    const scaleToZero = await refused(["scanner.keda.enabled=true", "scanner.keda.minReplicas=0"]);
    const scaled = scaleToZero.find((m) => m.kind === "ScaledObject") as (Manifest & { spec: { minReplicaCount: number } }) | undefined;
    expect(scaled?.spec.minReplicaCount).toBe(0);
    const outcome = await applyDryRun(api as ApiServer, resources, scaled as Manifest);
    expect(outcome.messages).toEqual([]);
  }, 60_000);

  it("every service that calls another gets its address, and the NetworkPolicies let exactly that call through", () => {
    const defaults = rendered.get("defaults") ?? [];
    expect(defaults.length, "the defaults case rendered").toBeGreaterThan(0);
    type Container = { env?: { name: string; value?: string }[] };
    const envOf = (d: string) => {
      const dep = defaults.find((m) => m.kind === "Deployment" && m.metadata.name === `${RELEASE}-${d}`) as unknown as
        | { spec: { template: { spec: { containers: Container[] } } } }
        | undefined;
      return new Map((dep?.spec.template.spec.containers[0]?.env ?? []).map((e) => [e.name, e.value]));
    };
    const policy = (d: string) => JSON.stringify(defaults.find((m) => m.kind === "NetworkPolicy" && m.metadata.name === `${RELEASE}-${d}`));
    // What each service's config reads: `AUTH_URL: z.url()...` names the deployable it calls.
    for (const d of deployables().filter((x) => x !== "gateway")) {
      const config = fs.readFileSync(path.join("services", d, "src", "config.ts"), "utf8");
      for (const [, urlEnv] of config.matchAll(/^\s*([A-Z_]+)_URL: z\.url\(\)/gm)) {
        const callee = urlEnv!.toLowerCase().replace(/_/g, "-");
        if (!deployables().includes(callee)) continue;
        expect(envOf(d).get(`${urlEnv}_URL`), `${d} calls ${callee}`).toMatch(new RegExp(`^http://${RELEASE}-${callee}:\\d+$`));
        expect(policy(d), `${d}'s egress to ${callee}`).toContain(`"app.kubernetes.io/component":"${callee}"`);
        expect(policy(callee), `${callee}'s ingress from ${d}`).toContain(`"app.kubernetes.io/component":"${d}"`);
      }
    }
    expect(envOf("scan-orchestrator").get("FINDINGS_URL")).toBe(`http://${RELEASE}-findings:50054`);
  });

  it("every deployable in services/ and gateway/ has a chart entry rendered by default", () => {
    const defaults = rendered.get("defaults");
    expect(defaults, "the defaults case rendered").toBeDefined();
    const deployments = new Set((defaults ?? []).filter((m) => m.kind === "Deployment").map((m) => m.metadata.name));
    const missing = deployables().filter((d) => !deployments.has(`${RELEASE}-${d}`));
    expect(missing, "deployables with no Deployment in the chart (add them to _helpers.tpl vulnscan.components and values.yaml)").toEqual([]);
  });
});
