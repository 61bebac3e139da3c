import { spawnSync } from "node:child_process";
import { ROOT } from "./root.js";

/** Runs a command from the repository root with the workspace's bin folder on PATH; throws on failure. */
export function run(cmd: string, args: string[], opts: { quiet?: boolean } = {}): string {
  const res = spawnSync(cmd, args, {
    cwd: ROOT,
    encoding: "utf8",
    stdio: opts.quiet ? "pipe" : ["ignore", "inherit", "inherit"],
    env: { ...process.env, PATH: `${ROOT}/node_modules/.bin:${process.env.PATH}` },
  });
  if (res.status !== 0) {
    const out = opts.quiet ? `\n${res.stdout ?? ""}${res.stderr ?? ""}` : "";
    throw new Error(`${cmd} ${args.join(" ")} failed (exit ${res.status})${out}`);
  }
  return res.stdout ?? "";
}
