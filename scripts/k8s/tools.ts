// The Kubernetes tools the chart checks use (test/k8s), built once from the Go module proxy into
// the cache folder, under the install lock shared by every checkout and process:
//   - helm, pinned, with the ldflags its release builds set (its version and default Kubernetes);
//   - kube-apiserver and etcd of the oldest Kubernetes the chart supports (Chart.yaml kubeVersion),
//     etcd at the version that Kubernetes release requires (one module graph, scripts/k8s/kube);
//   - the CRDs the chart renders (KEDA ScaledObject, Prometheus Operator ServiceMonitor and
//     PrometheusRule), read from those projects' own Go modules.
// go.mod and go.sum of each build are committed (scripts/k8s/helm, scripts/k8s/kube).

import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { cacheDir } from "../lib/stack-state.ts";
import { removeLeftovers, withLock, withProgress } from "../stack/lock.ts";
import { run, which } from "../stack/process.ts";

export const HELM_VERSION = "3.16.4";
/** The oldest Kubernetes the chart supports; its API server judges the rendered manifests. */
export const KUBE_VERSION = "1.27.16";
/** Bumped when the build of kube-apiserver or etcd changes, so an older install is never reused. */
const KUBE_BUILD = "vs2";
export const KEDA_VERSION = "2.14.0";
export const PROMETHEUS_OPERATOR_VERSION = "0.75.2";

const here = path.dirname(fileURLToPath(import.meta.url));

interface GoTarget {
  /** Package to build, or a directory of the build module (`./etcd`). */
  pkg: string;
  /** Binary name in the install folder. */
  out: string;
  ldflags?: string[];
  tags?: string[];
}

// No cgo (every tool here is pure Go); GOTOOLCHAIN=local stops go from fetching another
// toolchain; -mod=mod lets go add go.sum lines a newer toolchain wants.
const goEnv = (): NodeJS.ProcessEnv => ({ ...process.env, GOFLAGS: "-mod=mod -buildvcs=false", GOTOOLCHAIN: "local", CGO_ENABLED: "0" });

function goBinary(): string {
  const go = which("go");
  if (!go) throw new Error("the Kubernetes chart checks build helm, kube-apiserver and etcd with the Go toolchain, but `go` is not on PATH");
  return go;
}

/**
 * Builds the targets of one committed Go module (scripts/k8s/<module>) into
 * <cache>/<name>/ once; later calls return at once. The install folder appears whole or not at all.
 */
async function ensureGoTools(name: string, module: string, targets: GoTarget[], log: (line: string) => void): Promise<Record<string, string>> {
  const home = path.join(cacheDir(), name);
  const bins = Object.fromEntries(targets.map((t) => [t.out, path.join(home, t.out)]));
  const installed = () => Object.values(bins).every((bin) => fs.existsSync(bin));
  if (installed()) return bins;
  return withLock(name, log, async () => {
    if (installed()) return bins;
    const go = goBinary();
    const buildRoot = path.join(cacheDir(), "build");
    await removeLeftovers(path.join(buildRoot, `${name}-`));
    await removeLeftovers(`${home}.tmp-`);
    const build = path.join(buildRoot, `${name}-${process.pid}`);
    const tmp = `${home}.tmp-${process.pid}`;
    await fsp.mkdir(tmp, { recursive: true });
    await fsp.cp(path.join(here, module), build, { recursive: true });
    const started = Date.now();
    for (const target of targets) {
      log(`building ${target.out} (${name}) with ${go} (first run only, minutes)`);
      const args = ["build", "-trimpath", "-o", path.join(tmp, target.out)];
      if (target.tags?.length) args.push("-tags", target.tags.join(","));
      if (target.ldflags?.length) args.push("-ldflags", target.ldflags.join(" "));
      await withProgress(log, `go build ${target.out}`, () => run(go, [...args, target.pkg], { cwd: build, env: goEnv() }));
    }
    await fsp.rm(home, { recursive: true, force: true });
    await fsp.rename(tmp, home);
    await fsp.rm(build, { recursive: true, force: true });
    await fsp.rmdir(buildRoot).catch(() => undefined); // only if empty
    log(`${name} built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return bins;
  });
}

export async function ensureHelm(log: (line: string) => void): Promise<string> {
  // What helm's Makefile sets: without them `helm version` is "v3.16+unreleased" and the default
  // Kubernetes version of lint/template is an old one.
  const [major, minor] = KUBE_VERSION.split(".");
  const ldflags = [
    `-X helm.sh/helm/v3/internal/version.version=v${HELM_VERSION}`,
    ...["pkg/chartutil", "pkg/lint/rules"].flatMap((pkg) => [
      `-X helm.sh/helm/v3/${pkg}.k8sVersionMajor=${major}`,
      `-X helm.sh/helm/v3/${pkg}.k8sVersionMinor=${minor}`,
    ]),
  ];
  const bins = await ensureGoTools(`helm-${HELM_VERSION}`, "helm", [{ pkg: "helm.sh/helm/v3/cmd/helm", out: "helm", ldflags }], log);
  return bins.helm as string;
}

export interface KubeBinaries {
  apiserver: string;
  etcd: string;
}

export async function ensureKubeApiserver(log: (line: string) => void): Promise<KubeBinaries> {
  // providerless: without the in-tree cloud providers, which the checks never use (and whose
  // k8s.io/legacy-cloud-providers module the checksum database does not serve for this release).
  const bins = await ensureGoTools(
    `kube-apiserver-${KUBE_VERSION}-${KUBE_BUILD}`,
    "kube",
    [
      {
        pkg: "k8s.io/kubernetes/cmd/kube-apiserver",
        out: "kube-apiserver",
        tags: ["providerless"],
        // What Kubernetes' release build sets; PodSecurity admission panics without major/minor.
        ldflags: ["gitVersion", "gitMajor", "gitMinor"].map(
          (name, i) => `-X k8s.io/component-base/version.${name}=${[`v${KUBE_VERSION}`, ...KUBE_VERSION.split(".")][i]}`,
        ),
      },
      { pkg: "./etcd", out: "etcd" },
    ],
    log,
  );
  return { apiserver: bins["kube-apiserver"] as string, etcd: bins.etcd as string };
}

/** The source folder of a Go module in the module cache (downloaded through the proxy if needed). */
async function goModuleDir(modulePath: string, version: string): Promise<string> {
  const out = await run(goBinary(), ["mod", "download", "-json", `${modulePath}@v${version}`], { cwd: cacheDir(), env: goEnv() });
  const info = JSON.parse(out) as { Dir?: string; Error?: string };
  if (!info.Dir) throw new Error(`go mod download ${modulePath}@v${version}: ${info.Error ?? "no source folder"}`);
  return info.Dir;
}

/** CRD manifests of the custom resources the chart can render, from their projects' Go modules. */
export async function chartCrds(): Promise<string[]> {
  const keda = await goModuleDir("github.com/kedacore/keda/v2", KEDA_VERSION);
  const promOp = await goModuleDir("github.com/prometheus-operator/prometheus-operator", PROMETHEUS_OPERATOR_VERSION);
  const crds = [
    path.join(keda, "config/crd/bases/keda.sh_scaledobjects.yaml"),
    path.join(promOp, "example/prometheus-operator-crd/monitoring.coreos.com_servicemonitors.yaml"),
    path.join(promOp, "example/prometheus-operator-crd/monitoring.coreos.com_prometheusrules.yaml"),
  ];
  for (const file of crds) if (!fs.existsSync(file)) throw new Error(`CRD file missing from its module: ${file}`);
  return crds;
}

/**
 * Every tool and CRD the chart checks use, built or downloaded once. `npm test` calls it before
 * vitest: a cold build (minutes; kube-apiserver far longer on two cores) must not run inside a
 * test's or hook's timeout, where a fresh machine's first run failed on helm alone.
 */
export async function ensureK8sTools(log: (line: string) => void): Promise<void> {
  await ensureHelm(log);
  await ensureKubeApiserver(log);
  await chartCrds();
}
