// Builds the web console (web/ → web/dist) that the gateway serves at /.
import fs from "node:fs";
import path from "node:path";
import { ROOT } from "./root.js";
import { run } from "./run.js";

export const WEB_DIR = path.join(ROOT, "web");
export const WEB_DIST = path.join(WEB_DIR, "dist");

function newestMtime(p: string): number {
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(st.mtimeMs, ...fs.readdirSync(p).map((e) => newestMtime(path.join(p, e))));
}

/** True when web/dist is missing or older than a source file (index.html, src/, the config). */
export function consoleStale(): boolean {
  const built = path.join(WEB_DIST, "index.html");
  if (!fs.existsSync(built)) return true;
  const sources = ["index.html", "src", "vite.config.ts", "package.json"].map((f) => path.join(WEB_DIR, f)).filter((f) => fs.existsSync(f));
  return Math.max(...sources.map(newestMtime)) > fs.statSync(built).mtimeMs;
}

/** vite build (about a second); type checking is `npm test`'s job (tsc -p web). Returns whether it built. */
export function buildConsole(opts: { force?: boolean } = {}): boolean {
  if (!opts.force && !consoleStale()) return false;
  run("npm", ["run", "build", "--workspace", "web", "--silent"], { quiet: true });
  return true;
}
