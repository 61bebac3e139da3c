// Operator CLI (`npm run admin -- <command>`). It runs auth's use cases on auth's database
// through auth's operator entry point (`@vulnscan/auth/admin`), not RPC, so it works before
// any service runs; rebuild-rollups is findings' (`@vulnscan/findings/admin`), verify-target the
// scan orchestrator's (`@vulnscan/scan-orchestrator/admin`). The last line printed is one JSON
// object, so scripts can read it with `tail -n 1`.
//
// Where the database is: MONGO_URL (and MONGO_DB) when set, else the stack a running
// `npm start` announced in its state file, else mongodb://127.0.0.1:27017/. Changes the
// gateways must learn (disable-user, set-limits, set-plan) are stored with their auth.* event
// and published at once when Kafka is known (KAFKA_BROKERS, else the state file); otherwise the
// running auth service's outbox relay publishes them within a few seconds.
import { parseArgs } from "node:util";
import { authAdmin, isPlanTier, seedDemo, type CustomLimits, type Limit, type PlanLimits } from "@vulnscan/auth/admin";
import { indexSearch, rebuildRollups } from "@vulnscan/findings/admin";
import { attestTarget } from "@vulnscan/scan-orchestrator/admin";
import { createLogger, createMongo, DomainError, KafkaBus, mongoUrl } from "@vulnscan/kit";
import { readStackState } from "./lib/stack-state.js";

const USAGE = `usage: npm run admin -- <command> [options]

commands:
  create-org  --name NAME --plan startup|professional|enterprise   → {"id":"org_…"}
  create-user --org ORG_ID --email EMAIL --password PASSWORD        → {"id":"user_…"}
              (--password - reads the password from standard input)
  set-plan    --org ORG_ID --plan startup|professional|enterprise   → {"id":"org_…","plan":"…"}
  set-limits  --org ORG_ID [--requests-per-hour N] [--requests-per-day N]
              [--scans-per-month N|unlimited] [--concurrent-scans N|unlimited]
              [--webhooks N|unlimited] [--ai-credits N]
              (Enterprise only; what is not given keeps its value)  → {"id":"org_…","plan":"enterprise","limits":{…}}
  disable-user --org ORG_ID --user USER_ID   (no login; tokens, sessions and their API keys stop)
                                                                    → {"id":"user_…","disabled":true,"revoked_sessions":N}
  enable-user  --org ORG_ID --user USER_ID                          → {"id":"user_…","disabled":false,"revoked_sessions":0}
  list-orgs   [--page N] [--per-page N]                             → {"organizations":[…],"total":N}
  rebuild-rollups --org ORG_ID  (findings stats recounted from the findings; run it in a quiet moment)
                                                                    → {"id":"org_…","findings":N,"documents":N}
  index-search --org ORG_ID     (the ?search= fields of findings stored before search existed; once after upgrading)
                                                                    → {"id":"org_…","findings":N,"updated":N}
  verify-target --org ORG_ID --target TARGET_ID --reason TEXT [--operator NAME]
              (the operator vouches for an IP or CIDR target; recorded with the reason and name)
                                                                    → {"id":"target_…","status":"verified","method":"attestation"}
  seed-demo                                                         → {"accounts":[…]}

environment: MONGO_URL and MONGO_DB (default: the running \`npm start\` stack's, else
mongodb://127.0.0.1:27017/ and auth), MONGO_DB_FINDINGS (rebuild-rollups, index-search; default findings),
MONGO_DB_SCANS (verify-target; default scans),
KAFKA_BROKERS (default: the running stack's)`;

class UsageError extends Error {}

function fail(message: string, code: number, usage = false): never {
  process.stderr.write(`error: ${message}\n`);
  if (usage) process.stderr.write(`\n${USAGE}\n`);
  process.exit(code);
}

/** The options each command takes; every one is a string (`--org org_x`). */
const ALLOWED = {
  "create-org": ["name", "plan"],
  "create-user": ["org", "email", "password"],
  "set-plan": ["org", "plan"],
  "rebuild-rollups": ["org"],
  "index-search": ["org"],
  "set-limits": ["org", "requests-per-hour", "requests-per-day", "scans-per-month", "concurrent-scans", "webhooks", "ai-credits"],
  "disable-user": ["org", "user"],
  "enable-user": ["org", "user"],
  "list-orgs": ["page", "per-page"],
  "verify-target": ["org", "target", "reason", "operator"],
  "seed-demo": [],
} as const satisfies Record<string, readonly string[]>;

type OptionName = (typeof ALLOWED)[keyof typeof ALLOWED][number];

const OPTIONS = {
  ...(Object.fromEntries(Object.values(ALLOWED).flatMap((names) => names.map((n) => [n, { type: "string" }]))) as Record<OptionName, { type: "string" }>),
  help: { type: "boolean", short: "h" },
} as const;

function parse(argv: string[]) {
  let parsed: ReturnType<typeof parseArgs<{ args: string[]; options: typeof OPTIONS; allowPositionals: true; strict: true }>>;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const [command, ...extra] = parsed.positionals;
  if (parsed.values.help || !command) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(command || parsed.values.help ? 0 : 2);
  }
  const allowed = (ALLOWED as Record<string, readonly OptionName[] | undefined>)[command];
  if (!allowed) throw new UsageError(`unknown command: ${command}`);
  if (extra.length) throw new UsageError(`unexpected argument: ${extra[0]}`);
  for (const key of Object.keys(parsed.values)) {
    if (key !== "help" && !allowed.includes(key as OptionName)) throw new UsageError(`${command} takes no --${key}`);
  }
  return { command, values: parsed.values };
}

function required(values: Record<string, unknown>, key: string): string {
  const v = values[key];
  if (typeof v !== "string" || v.trim() === "") throw new UsageError(`--${key} is required`);
  return v;
}

function plan(values: Record<string, unknown>) {
  const p = required(values, "plan").trim().toLowerCase();
  if (!isPlanTier(p)) throw new UsageError(`--plan must be startup, professional or enterprise (got ${p})`);
  return p;
}

function positiveInt(values: Record<string, unknown>, key: string): number {
  const v = values[key];
  if (v === undefined) return 0;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--${key} must be a whole number of 1 or more`);
  return n;
}

/** A whole number of at least `min`, or (when allowed) the word "unlimited". */
function limitArg(values: Record<string, unknown>, key: string, min: number, unlimitedOk: boolean): Limit | undefined {
  const v = values[key];
  if (v === undefined) return undefined;
  const text = String(v).trim().toLowerCase();
  if (unlimitedOk && text === "unlimited") return { unlimited: true, max: 0 };
  const n = Number(text);
  if (text === "" || !Number.isInteger(n) || n < min || n > 2_147_483_647) {
    throw new UsageError(`--${key} must be a whole number from ${min} to 2147483647${unlimitedOk ? ' or "unlimited"' : ""} (got ${String(v)})`);
  }
  return { unlimited: false, max: n };
}

function limitsArgs(values: Record<string, unknown>): CustomLimits {
  const out: CustomLimits = {};
  const set = (k: keyof Omit<PlanLimits, "minCidrPrefixLength">, l: Limit | undefined) => {
    if (l) out[k] = l;
  };
  set("requestsPerHour", limitArg(values, "requests-per-hour", 1, false));
  set("requestsPerDay", limitArg(values, "requests-per-day", 1, false));
  set("scansPerMonth", limitArg(values, "scans-per-month", 0, true));
  set("concurrentScans", limitArg(values, "concurrent-scans", 0, true));
  set("webhooks", limitArg(values, "webhooks", 0, true));
  set("aiCreditsPerMonth", limitArg(values, "ai-credits", 0, false));
  if (Object.keys(out).length === 0) {
    throw new UsageError(
      "set-limits needs at least one of --requests-per-hour, --requests-per-day, --scans-per-month, --concurrent-scans, --webhooks, --ai-credits",
    );
  }
  return out;
}

const limitJson = (l: Limit) => (l.unlimited ? "unlimited" : l.max);

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks)
    .toString("utf8")
    .replace(/\r?\n$/, "");
}

async function main() {
  let cmd: ReturnType<typeof parse>;
  try {
    cmd = parse(process.argv.slice(2));
  } catch (err) {
    if (err instanceof UsageError) fail(err.message, 2, true);
    throw err;
  }
  const { command, values } = cmd;
  // Check every argument before touching the database.
  let args: Record<string, string | number> = {};
  let limits: CustomLimits = {};
  try {
    if (command === "create-org") args = { name: required(values, "name"), plan: plan(values) };
    if (command === "create-user") {
      args = { org: required(values, "org"), email: required(values, "email"), password: required(values, "password") };
    }
    if (command === "set-plan") args = { org: required(values, "org"), plan: plan(values) };
    if (command === "list-orgs") args = { page: positiveInt(values, "page"), perPage: positiveInt(values, "per-page") };
    if (command === "set-limits") {
      args = { org: required(values, "org") };
      limits = limitsArgs(values);
    }
    if (command === "rebuild-rollups" || command === "index-search") args = { org: required(values, "org") };
    if (command === "verify-target") {
      args = {
        org: required(values, "org"),
        target: required(values, "target"),
        reason: required(values, "reason"),
        operator: values.operator || process.env.USER || "operator",
      };
    }
    if (command === "disable-user" || command === "enable-user") args = { org: required(values, "org"), user: required(values, "user") };
  } catch (err) {
    if (err instanceof UsageError) fail(err.message, 2, true);
    throw err;
  }
  if (args.password === "-") args.password = await readStdin();

  // MONGO_URL first, then the stack a running `npm start` announced, then the old default.
  const stack = readStackState();
  const url = process.env.MONGO_URL || stack?.mongoUrl || "mongodb://127.0.0.1:27017/";
  const where = process.env.MONGO_URL ? "MONGO_URL" : stack ? `the running stack (pid ${stack.pid})` : "the default address";
  if (!mongoUrl.safeParse(url).success) fail(`MONGO_URL must be a mongodb:// URL (got ${url})`, 2);
  const dbName = process.env.MONGO_DB || `${process.env.MONGO_URL ? "" : (stack?.dbPrefix ?? "")}auth`;
  const brokers = (process.env.KAFKA_BROKERS || (process.env.MONGO_URL ? "" : (stack?.kafkaBrokers ?? "")))
    .split(",")
    .map((b) => b.trim())
    .filter(Boolean);
  const mongo = createMongo(url, dbName, "auth-admin");
  const logger = createLogger("auth-admin", "silent");
  const kafka = brokers.length ? new KafkaBus({ clientId: "auth-admin", brokers, logger, topicPrefix: process.env.KAFKA_TOPIC_PREFIX ?? "" }) : undefined;
  try {
    await mongo.ping().catch((err: Error) => {
      throw new Error(`cannot reach MongoDB at ${url} (from ${where}): ${err.message}`);
    });
    const domain = await authAdmin(mongo.db, { logger, ...(kafka ? { kafka } : {}) });
    const { directory } = domain;
    let result: unknown;
    switch (command) {
      case "create-org": {
        const v = await directory.createOrganization(String(args.name), plan(values));
        process.stdout.write(`created organization ${v.organization.name} on the ${v.plan.tier} plan\n`);
        result = { id: v.organization.id };
        break;
      }
      case "create-user": {
        const u = await directory.createUser(String(args.org), String(args.email), String(args.password));
        process.stdout.write(`created user ${u.email} in ${u.orgId}\n`);
        result = { id: u.id };
        break;
      }
      case "set-plan": {
        const v = await directory.setPlan(String(args.org), plan(values));
        result = { id: v.organization.id, plan: v.plan.tier };
        break;
      }
      case "set-limits": {
        const v = await directory.setLimits(String(args.org), limits);
        const l = v.plan.limits;
        result = {
          id: v.organization.id,
          plan: v.plan.tier,
          limits: {
            requests_per_hour: limitJson(l.requestsPerHour),
            requests_per_day: limitJson(l.requestsPerDay),
            scans_per_month: limitJson(l.scansPerMonth),
            concurrent_scans: limitJson(l.concurrentScans),
            webhooks: limitJson(l.webhooks),
            ai_credits: limitJson(l.aiCreditsPerMonth),
          },
        };
        break;
      }
      case "disable-user":
      case "enable-user": {
        const r = await domain.accounts.setDisabled(String(args.org), String(args.user), command === "disable-user");
        result = { id: String(args.user), disabled: r.disabled, revoked_sessions: r.revokedSessions };
        break;
      }
      case "list-orgs": {
        const page = await directory.listOrganizations(Number(args.page), Number(args.perPage));
        result = {
          organizations: page.items.map((v) => ({
            id: v.organization.id,
            name: v.organization.name,
            plan: v.plan.tier,
            created_at: v.organization.createdAt.toISOString(),
          })),
          total: page.total,
          page: page.page,
          per_page: page.perPage,
          pages: page.pages,
        };
        break;
      }
      case "rebuild-rollups": {
        // Findings owns the rollups; the organization is checked in auth's directory first so a
        // typo answers "not found" instead of writing empty rollups.
        await directory.getOrganization(String(args.org));
        const findingsDb = mongo.client.db(`${process.env.MONGO_DB_FINDINGS || (process.env.MONGO_URL ? "" : (stack?.dbPrefix ?? ""))}findings`);
        const r = await rebuildRollups(findingsDb, String(args.org));
        result = { id: String(args.org), findings: r.findings, documents: r.documents };
        break;
      }
      case "index-search": {
        await directory.getOrganization(String(args.org));
        const findingsDb = mongo.client.db(`${process.env.MONGO_DB_FINDINGS || (process.env.MONGO_URL ? "" : (stack?.dbPrefix ?? ""))}findings`);
        const r = await indexSearch(findingsDb, String(args.org));
        result = { id: String(args.org), findings: r.findings, updated: r.updated };
        break;
      }
      case "verify-target": {
        // The organization is checked in auth's directory first, as for rebuild-rollups.
        await directory.getOrganization(String(args.org));
        const scansDb = mongo.client.db(process.env.MONGO_DB_SCANS || `${process.env.MONGO_URL ? "" : (stack?.dbPrefix ?? "")}scans`);
        const t = await attestTarget(scansDb, String(args.org), String(args.target), String(args.reason), String(args.operator));
        process.stdout.write(`${t.target} is verified by the operator's attestation\n`);
        result = { id: t._id, target: t.target, status: t.status, method: t.method };
        break;
      }
      case "seed-demo": {
        result = { accounts: await seedDemo(mongo.db) };
        break;
      }
    }
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } catch (err) {
    if (err instanceof DomainError) fail(`${err.message}${err.field ? ` (${err.field})` : ""}`, 2);
    fail((err as Error).message, 1);
  } finally {
    await kafka?.close().catch(() => undefined);
    await mongo.close().catch(() => undefined);
  }
}

await main();
