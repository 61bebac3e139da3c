// `npm run build`: compiles every deployable into dist/ (scripts/lib/build.ts). `--if-stale`
// builds only when a source changed since the last build (what `npm start` runs); `--image` only
// the seven deployables the image holds (the Dockerfile's build stage has no scripts/start.ts).
import { buildAll, buildStaleReason, DIST, IMAGE_DEPLOYABLES } from "./lib/build.js";

const reason = process.argv.includes("--if-stale") ? buildStaleReason() : "asked";
if (reason) {
  const { ms, bytes } = await buildAll(process.argv.includes("--image") ? { only: IMAGE_DEPLOYABLES } : {});
  const sizes = Object.entries(bytes).map(([name, n]) => `${name} ${(n / 1024).toFixed(0)} kB`);
  console.log(`[build] ${DIST} in ${(ms / 1000).toFixed(1)} s (${reason}): ${sizes.join(", ")}`);
}
