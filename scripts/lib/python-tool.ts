// A pinned PyPI tool in a virtualenv of its own in the stack's cache folder: made once with the
// machine's python3 (`-m venv`), reused on every later run (a marker file says the install
// finished), under the cache's install lock so two checkouts never install it at once.

import fs from "node:fs";
import path from "node:path";
import { withLock, withProgress } from "../stack/lock.ts";
import { run } from "../stack/process.ts";
import { cacheDir } from "./stack-state.ts";

/** The venv's `bin/<executable>` of `pkg==version`, installing it first when missing. */
export async function ensurePythonTool(pkg: string, version: string, log: (line: string) => void, executable = pkg): Promise<string> {
  const venv = path.join(cacheDir(), `${pkg}-${version}`);
  const bin = path.join(venv, "bin", executable);
  const marker = path.join(venv, ".installed");
  if (fs.existsSync(marker)) return bin;
  return withLock(`${pkg}-${version}`, log, async () => {
    if (fs.existsSync(marker)) return bin; // another process installed it while we waited
    log(`installing ${pkg} ${version} into ${venv} (once)`);
    await withProgress(log, `${pkg} install`, async () => {
      // --clear: a half-made venv of an interrupted install is started afresh.
      await run("python3", ["-m", "venv", "--clear", venv]);
      await run(path.join(venv, "bin", "pip"), ["install", "--quiet", "--disable-pip-version-check", `${pkg}==${version}`]);
    });
    const said = (await run(bin, ["--version"])).trim();
    if (!said.includes(version)) throw new Error(`installed ${pkg} says ${JSON.stringify(said)}`);
    fs.writeFileSync(marker, `${said}\n`);
    return bin;
  });
}
