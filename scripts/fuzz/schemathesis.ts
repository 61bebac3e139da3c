// schemathesis (PyPI), pinned, in a virtualenv of its own in the stack's cache folder: made once
// with the machine's python3 (`-m venv`), reused on every later run (a marker file says the
// install finished), under the cache's install lock so two checkouts never install it at once.

import fs from "node:fs";
import path from "node:path";
import { cacheDir } from "../lib/stack-state.ts";
import { withLock, withProgress } from "../stack/lock.ts";
import { run } from "../stack/process.ts";

export const SCHEMATHESIS_VERSION = "4.32.5";

/** The venv's schemathesis executable, installing it first when missing. */
export async function ensureSchemathesis(log: (line: string) => void): Promise<string> {
  const venv = path.join(cacheDir(), `schemathesis-${SCHEMATHESIS_VERSION}`);
  const bin = path.join(venv, "bin", "schemathesis");
  const marker = path.join(venv, ".installed");
  if (fs.existsSync(marker)) return bin;
  return withLock(`schemathesis-${SCHEMATHESIS_VERSION}`, log, async () => {
    if (fs.existsSync(marker)) return bin; // another process installed it while we waited
    log(`installing schemathesis ${SCHEMATHESIS_VERSION} into ${venv} (once; a few minutes)`);
    await withProgress(log, "schemathesis install", async () => {
      // --clear: a half-made venv of an interrupted install is started afresh.
      await run("python3", ["-m", "venv", "--clear", venv]);
      await run(path.join(venv, "bin", "pip"), ["install", "--quiet", "--disable-pip-version-check", `schemathesis==${SCHEMATHESIS_VERSION}`]);
    });
    const version = (await run(bin, ["--version"])).trim();
    if (!version.endsWith(SCHEMATHESIS_VERSION)) throw new Error(`installed schemathesis says ${JSON.stringify(version)}`);
    fs.writeFileSync(marker, `${version}\n`);
    return bin;
  });
}
