// `npm run build`: compiles every deployable into dist/ (scripts/lib/build.ts). `--if-stale`
// builds only when a source changed since the last build (what `npm start` runs).
import { buildAll, buildStaleReason, DIST } from "./lib/build.js";

const reason = process.argv.includes("--if-stale") ? buildStaleReason() : "asked";
if (reason) {
  const { ms, bytes } = await buildAll();
  const sizes = Object.entries(bytes).map(([name, n]) => `${name} ${(n / 1024 / 1024).toFixed(1)} MB`);
  console.log(`[build] ${DIST} in ${(ms / 1000).toFixed(1)} s (${reason}): ${sizes.join(", ")}`);
}
