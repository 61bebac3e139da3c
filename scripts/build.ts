// `npm run build`: compiles every deployable into dist/ (scripts/lib/build.ts). `--if-stale`
// builds only when a source changed since the last build (what `npm start` runs); `--image` only
// the seven deployables the image holds (the Dockerfile's build stage has no scripts/start.ts);
// `--modules DIR` then copies the packages those bundles load at run time, with their
// dependencies, into DIR/node_modules (the image's; scripts/lib/image-modules.ts).
import { parseArgs } from "node:util";
import { buildAll, buildStaleReason, DIST, IMAGE_DEPLOYABLES, runtimePackages } from "./lib/build.js";
import { copyRuntimeModules } from "./lib/image-modules.js";

const { values: args } = parseArgs({
  options: { "if-stale": { type: "boolean", default: false }, image: { type: "boolean", default: false }, modules: { type: "string" } },
});
const reason = args["if-stale"] ? buildStaleReason() : "asked";
if (reason) {
  const { ms, bytes } = await buildAll(args.image ? { only: IMAGE_DEPLOYABLES } : {});
  const sizes = Object.entries(bytes).map(([name, n]) => `${name} ${(n / 1024).toFixed(0)} kB`);
  console.log(`[build] ${DIST} in ${(ms / 1000).toFixed(1)} s (${reason}): ${sizes.join(", ")}`);
}
if (args.modules) {
  const roots = runtimePackages();
  const { packages, bytes } = copyRuntimeModules(roots, args.modules);
  console.log(`[build] ${args.modules}/node_modules: ${packages} packages, ${(bytes / 1e6).toFixed(1)} MB (for ${roots.join(", ")})`);
}
