// Operator CLI of the auth service (`npm run admin -- <command>`). It is auth's own tool: it
// uses auth's domain and Mongo storage directly, not RPC. The last line printed is one JSON
// object, so scripts can read it with `tail -n 1`.
import { parseArgs } from "node:util";
import { createMongo, DomainError, ensureIndexes, mongoUrl } from "@vulnscan/kit";
import { Directory } from "../services/auth/src/domain/directory.js";
import { argon2Hasher } from "../services/auth/src/domain/passwords.js";
import { isPlanTier } from "../services/auth/src/domain/plans.js";
import { seedDemo } from "../services/auth/src/seed.js";
import { authIndexes, mongoRepositories } from "../services/auth/src/storage/index.js";

const USAGE = `usage: npm run admin -- <command> [options]

commands:
  create-org  --name NAME --plan startup|professional|enterprise   → {"id":"org_…"}
  create-user --org ORG_ID --email EMAIL --password PASSWORD        → {"id":"user_…"}
              (--password - reads the password from standard input)
  set-plan    --org ORG_ID --plan startup|professional|enterprise   → {"id":"org_…","plan":"…"}
  list-orgs   [--page N] [--per-page N]                             → {"organizations":[…],"total":N}
  seed-demo                                                         → {"accounts":[…]}

environment: MONGO_URL (default mongodb://127.0.0.1:27017/), MONGO_DB (default auth)`;

class UsageError extends Error {}

function fail(message: string, code: number, usage = false): never {
  process.stderr.write(`error: ${message}\n`);
  if (usage) process.stderr.write(`\n${USAGE}\n`);
  process.exit(code);
}

const OPTIONS = {
  name: { type: "string" },
  plan: { type: "string" },
  org: { type: "string" },
  email: { type: "string" },
  password: { type: "string" },
  page: { type: "string" },
  "per-page": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

const ALLOWED: Record<string, (keyof typeof OPTIONS)[]> = {
  "create-org": ["name", "plan"],
  "create-user": ["org", "email", "password"],
  "set-plan": ["org", "plan"],
  "list-orgs": ["page", "per-page"],
  "seed-demo": [],
};

function parse(argv: string[]) {
  let parsed;
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
  const allowed = ALLOWED[command];
  if (!allowed) throw new UsageError(`unknown command: ${command}`);
  if (extra.length) throw new UsageError(`unexpected argument: ${extra[0]}`);
  for (const key of Object.keys(parsed.values)) {
    if (key !== "help" && !allowed.includes(key as keyof typeof OPTIONS)) throw new UsageError(`${command} takes no --${key}`);
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

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8").replace(/\r?\n$/, "");
}

async function main() {
  let cmd;
  try {
    cmd = parse(process.argv.slice(2));
  } catch (err) {
    if (err instanceof UsageError) fail(err.message, 2, true);
    throw err;
  }
  const { command, values } = cmd;
  // Check every argument before touching the database.
  let args: Record<string, string | number> = {};
  try {
    if (command === "create-org") args = { name: required(values, "name"), plan: plan(values) };
    if (command === "create-user") {
      args = { org: required(values, "org"), email: required(values, "email"), password: required(values, "password") };
    }
    if (command === "set-plan") args = { org: required(values, "org"), plan: plan(values) };
    if (command === "list-orgs") args = { page: positiveInt(values, "page"), perPage: positiveInt(values, "per-page") };
  } catch (err) {
    if (err instanceof UsageError) fail(err.message, 2, true);
    throw err;
  }
  if (args.password === "-") args.password = await readStdin();

  const url = process.env.MONGO_URL || "mongodb://127.0.0.1:27017/";
  if (!mongoUrl.safeParse(url).success) fail(`MONGO_URL must be a mongodb:// URL (got ${url})`, 2);
  const dbName = process.env.MONGO_DB || "auth";
  const mongo = createMongo(url, dbName, "auth-admin");
  try {
    await mongo.ping().catch((err: Error) => {
      throw new Error(`cannot reach MongoDB at ${url}: ${err.message}`);
    });
    await ensureIndexes(mongo.db, authIndexes);
    const repos = mongoRepositories(mongo.db);
    const directory = new Directory({ orgs: repos.orgs, users: repos.users, hasher: argon2Hasher, now: () => new Date() });
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
    await mongo.close().catch(() => undefined);
  }
}

await main();
