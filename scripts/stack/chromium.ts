// Debian's Chromium for the browser tests (test/browser), installed with apt when missing,
// like the scan lab's packages (test/lab/setup.sh). Never a browser download: playwright-core
// drives this binary.
import fs from "node:fs";
import { withLock, withProgress } from "./lock.ts";
import { run, which } from "./process.ts";

export const CHROMIUM = "/usr/bin/chromium";

/** Flags for a quiet, offline, throw-away headless browser (add a fresh --user-data-dir). */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** The path of Chromium, installing Debian's package first if it is not there. */
export async function ensureChromium(log: (line: string) => void): Promise<string> {
  if (fs.existsSync(CHROMIUM)) return CHROMIUM;
  return withLock("chromium-apt", log, async () => {
    if (fs.existsSync(CHROMIUM)) return CHROMIUM;
    const apt = which("apt-get");
    if (!apt || process.getuid?.() !== 0) throw new Error(`${CHROMIUM} is missing; install Debian's chromium package (apt-get install chromium)`);
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
    await withProgress(log, "apt-get install chromium", async () => {
      await run(apt, ["update", "-qq"], { env });
      await run(apt, ["install", "-y", "-qq", "--no-install-recommends", "chromium"], { env });
    });
    return CHROMIUM;
  });
}
