// `npm test`: contracts, types, lint and format, then every unit and integration test (vitest starts a real
// Kafka and MongoDB-protocol server for the integration project). Vitest's summary is the last line.
import { spawnSync } from "node:child_process";
import { checkContracts } from "./check-contracts.js";
import { checkClients } from "./clients.js";
import { ensureK8sTools } from "./k8s/tools.js";
import { ensureBuilt } from "./lib/build.js";
import { run } from "./lib/run.js";
import { ROOT } from "./lib/root.js";
import { buildConsole } from "./lib/web.js";

async function step(name: string, fn: () => unknown) {
  const t0 = Date.now();
  await fn();
  console.log(`[test] ${name} ok (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
}

try {
  await step("contracts (buf lint, format, breaking against main, generated code fresh)", checkContracts);
  await step("client libraries (generated from the OpenAPI document and fresh; no undeclared breaking change since the last release)", checkClients);
  await step("typecheck (tsc --noEmit)", () => run("tsc", ["--noEmit", "-p", "tsconfig.json"]));
  await step("typecheck web console (tsc -p web)", () => run("tsc", ["-p", "web/tsconfig.json"]));
  // The browser tests (test/browser) drive the console the gateway serves from web/dist.
  await step("build web console (vite build)", () => buildConsole({ force: true }));
  // What the end-to-end tests and the image run (scripts/lib/build.ts); vitest's global setup
  // rebuilds it too when a file is edited later, but here it is built fresh, as the image is.
  await step("build the deployables (esbuild → dist/)", () => ensureBuilt({ force: true }));
  await step("lint and format (biome check; `npm run format` fixes formatting)", () => run("biome", ["check", "--error-on-warnings", "."]));
  // Installs, not tests: built outside any test timeout (a cold build takes minutes), once per cache.
  await step("Kubernetes tools (helm, kube-apiserver, etcd, CRDs)", () => ensureK8sTools((line) => console.log(`[test] k8s tools: ${line}`)));
} catch (err) {
  console.error(`[test] ${(err as Error).message}`);
  process.exit(1);
}

const vitest = spawnSync(`${ROOT}/node_modules/.bin/vitest`, ["run", ...process.argv.slice(2)], {
  cwd: ROOT,
  stdio: "inherit",
  env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? "0" },
});
process.exit(vitest.status ?? 1);
