import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { run } from "./lib/run.js";
import { ROOT } from "./lib/root.js";

function listFiles(dir: string, base = dir): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? listFiles(full, base) : [path.relative(base, full)];
  });
}

/**
 * `buf breaking` against the main branch: a change on another branch that would break a
 * deployed client (a field removed or renumbered, a type changed) fails here. On main itself
 * it compares main with main; without git history (an exported tree) it is skipped, saying so.
 */
function checkBreaking(): void {
  const hasMain = spawnSync("git", ["rev-parse", "--verify", "--quiet", "refs/heads/main"], { cwd: ROOT }).status === 0;
  if (!hasMain) {
    console.log("contracts: no local main branch, buf breaking skipped");
    return;
  }
  run("buf", ["breaking", "--against", ".git#branch=main"]);
}

/**
 * Lints and format-checks the protos, checks them against main with `buf breaking`, then regenerates into a temp folder and compares with
 * the committed proto/gen: a contract change without `npm run generate` fails here.
 */
export function checkContracts(): void {
  run("buf", ["lint"]);
  run("buf", ["format", "--diff", "--exit-code"]);
  checkBreaking();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "vulnscan-gen-"));
  try {
    run("buf", ["generate", "--output", tmp]);
    const fresh = path.join(tmp, "proto", "gen");
    const committed = path.join(ROOT, "proto", "gen");
    const a = listFiles(fresh).sort();
    const b = listFiles(committed).sort();
    const stale = [
      ...a.filter((f) => !b.includes(f)).map((f) => `missing: proto/gen/${f}`),
      ...b.filter((f) => !a.includes(f)).map((f) => `extra: proto/gen/${f}`),
      ...a
        .filter((f) => b.includes(f))
        .filter((f) => !fs.readFileSync(path.join(fresh, f)).equals(fs.readFileSync(path.join(committed, f))))
        .map((f) => `out of date: proto/gen/${f}`),
    ];
    if (stale.length) throw new Error(`generated code is stale; run \`npm run generate\`:\n  ${stale.join("\n  ")}`);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  checkContracts();
  console.log("contracts: lint, format, no breaking change against main, and generated code are up to date");
}
