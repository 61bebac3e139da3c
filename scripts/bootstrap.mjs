// Runs before `npm start` and `npm test` with nothing but Node itself, so a fresh clone
// installs its own dependencies. npm ci runs only when the lockfile changed since the last install.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const [major, minor] = process.versions.node.split(".").map(Number);
if (major < 20 || (major === 20 && minor < 19)) {
  console.error(`vulnscan needs Node.js 20.19 or later; this is ${process.version}.`);
  process.exit(1);
}

const lock = fs.readFileSync(path.join(root, "package-lock.json"));
const hash = createHash("sha256").update(lock).digest("hex");
const marker = path.join(root, "node_modules", ".vulnscan-lock-sha256");
const installed = fs.existsSync(marker) ? fs.readFileSync(marker, "utf8").trim() : "";
if (installed !== hash) {
  console.log("[bootstrap] installing npm dependencies (npm ci)…");
  const res = spawnSync("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: root, stdio: "inherit" });
  if (res.status !== 0) {
    console.error("[bootstrap] npm ci failed");
    process.exit(res.status ?? 1);
  }
  fs.writeFileSync(marker, `${hash}\n`);
}
