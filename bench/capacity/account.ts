// The customer: an Enterprise organization created with the operator CLI (`npm run admin`),
// request limits raised far above what a run sends (set-limits), one user, and an API key with
// the read permissions made through the public API, as a customer's script would use it.
import { spawn } from "node:child_process";
import { ROOT } from "../../scripts/lib/root.js";
import type { Target } from "./system.js";

export const PASSWORD = "capacity-bench-password-1";
const NAME_PREFIX = "Capacity bench";

/** The organization's name holds its sizes and the dataset's anchor time, so --reuse finds both. */
const orgName = (findings: number, scans: number, anchor: number) => `${NAME_PREFIX} ${findings}f ${scans}s @${anchor.toString(36)}`;
const anchorOf = (name: string) => Number.parseInt(name.slice(name.lastIndexOf("@") + 1), 36);
const emailOf = (findings: number, scans: number, anchor: number) => `capacity-${findings}f-${scans}s-${anchor.toString(36)}@example.test`;

/** `npm run admin -- <args>` against the target's auth database; the JSON object of its last line. */
function admin(target: Target, args: string[]): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/admin.ts", ...args], {
      cwd: ROOT,
      env: {
        ...process.env,
        ...target.serviceEnv,
        MONGO_URL: target.mongoUrl,
        MONGO_DB: `${target.dbPrefix}auth`,
        MONGO_DB_FINDINGS: `${target.dbPrefix}findings`,
        KAFKA_BROKERS: target.kafkaBrokers,
        LOG_LEVEL: "silent",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    child.once("error", reject);
    child.once("exit", (code) => {
      if (code !== 0) return reject(new Error(`admin ${args[0]} failed (${code}): ${out.trim()}`));
      try {
        resolve(JSON.parse(out.trim().split("\n").at(-1) ?? ""));
      } catch {
        reject(new Error(`admin ${args[0]}: no JSON in ${out.trim()}`));
      }
    });
  });
}

export interface Account {
  orgId: string;
  name: string;
  userId: string;
  email: string;
  anchor: number;
  /** True when found (--reuse) rather than created now. */
  existing: boolean;
}

/** An organization of an earlier run with the same sizes (the newest one), if any. */
async function findExisting(target: Target, findings: number, scans: number): Promise<{ id: string; name: string } | undefined> {
  const prefix = `${NAME_PREFIX} ${findings}f ${scans}s @`;
  const found: { id: string; name: string; created_at: string }[] = [];
  for (let page = 1; ; page++) {
    const res = (await admin(target, ["list-orgs", "--page", String(page), "--per-page", "100"])) as {
      organizations: { id: string; name: string; created_at: string }[];
      pages: number;
    };
    found.push(...res.organizations.filter((o) => o.name.startsWith(prefix)));
    if (page >= res.pages) break;
  }
  return found.sort((a, b) => b.created_at.localeCompare(a.created_at))[0];
}

/** Finds (reuse) or creates the organization and its user; the user's id is read back when found. */
export async function ensureAccount(target: Target, sizes: { findings: number; scans: number }, reuse: boolean, log: (s: string) => void): Promise<Account> {
  const existing = reuse ? await findExisting(target, sizes.findings, sizes.scans) : undefined;
  if (existing) {
    const anchor = anchorOf(existing.name);
    const email = emailOf(sizes.findings, sizes.scans, anchor);
    log(`reusing organization ${existing.id} ("${existing.name}")`);
    // The user id (the scans' creator and the findings' triager) from a sign-in's token.
    const token = await signIn(target.gatewayUrl, email);
    const sub = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString()).sub as string;
    return { orgId: existing.id, name: existing.name, userId: sub, email, anchor, existing: true };
  }
  // The anchor: whole seconds, so the name round-trips it exactly.
  const anchor = Math.floor(Date.now() / 1000) * 1000;
  const name = orgName(sizes.findings, sizes.scans, anchor);
  const email = emailOf(sizes.findings, sizes.scans, anchor);
  const org = String((await admin(target, ["create-org", "--name", name, "--plan", "enterprise"])).id);
  const userId = String((await admin(target, ["create-user", "--org", org, "--email", email, "--password", PASSWORD])).id);
  log(`created organization ${org} ("${name}") and user ${email}`);
  return { orgId: org, name, userId, email, anchor, existing: false };
}

/** Request limits far above what a run sends, so nothing is refused with 429 (published to the gateways at once). */
export async function raiseLimits(target: Target, orgId: string): Promise<void> {
  await admin(target, ["set-limits", "--org", orgId, "--requests-per-hour", "2000000000", "--requests-per-day", "2000000000"]);
}

/** POST /api/v1/auth/token (form fields, as the spec describes): the access token. */
export async function signIn(gatewayUrl: string, email: string): Promise<string> {
  const res = await fetch(`${gatewayUrl}/api/v1/auth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ username: email, password: PASSWORD }).toString(),
    signal: AbortSignal.timeout(30_000),
  });
  const body = (await res.json()) as { access_token?: string };
  if (res.status !== 200 || !body.access_token) throw new Error(`sign-in of ${email} answered ${res.status}: ${JSON.stringify(body)}`);
  return body.access_token;
}

/** A new API key with the read permissions of the measured routes (POST /api/v1/auth/api-keys). */
export async function createApiKey(gatewayUrl: string, token: string): Promise<string> {
  const res = await fetch(`${gatewayUrl}/api/v1/auth/api-keys`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ name: `capacity bench ${new Date().toISOString()}`, permissions: ["read:findings", "read:scans"] }),
    signal: AbortSignal.timeout(30_000),
  });
  const body = (await res.json()) as { key?: string };
  if (res.status !== 201 || !body.key) throw new Error(`creating an API key answered ${res.status}: ${JSON.stringify(body)}`);
  return body.key;
}
