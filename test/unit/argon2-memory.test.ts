import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../scripts/lib/root.js";
import { DEPLOYABLE_ENV } from "../../scripts/system.js";
import { ARGON2_OPTIONS } from "../../services/auth/src/domain/passwords.js";

/** RssAnon (MiB) of a process that loaded the argon2 addon, then after hashes (three at once). */
function anonAfterHashes(env: Record<string, string>): { before: number; after: number } {
  const script = `
    const { hash } = require("@node-rs/argon2");
    const anon = () => Number(/RssAnon:\\s+(\\d+)/.exec(require("node:fs").readFileSync("/proc/self/status", "utf8"))[1]) / 1024;
    const before = anon();
    const options = ${JSON.stringify(ARGON2_OPTIONS)};
    Promise.all([hash("a password", options), hash("another one", options), hash("a third", options)])
      .then(() => hash("one more", options))
      .then(() => console.log(JSON.stringify({ before, after: anon() })));`;
  const out = execFileSync(process.execPath, ["-e", script], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", NODE_PATH: path.join(ROOT, "node_modules"), ...env },
  });
  return JSON.parse(String(out)) as { before: number; after: number };
}

describe("auth's password hashing memory (DEPLOYABLE_ENV)", () => {
  it("gives each hash's 19 MiB of argon2id memory back once the hash is done", () => {
    const { before, after } = anonAfterHashes(DEPLOYABLE_ENV);
    expect(after - before).toBeLessThan(8);
  });
});
