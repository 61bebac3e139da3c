import { randomBytes } from "node:crypto";
import { ensureIndexes } from "@vulnscan/kit";
import type { Db } from "mongodb";
import { Directory } from "./domain/directory.js";
import { loginAttemptKey, loginSourceAttemptKey } from "./domain/login.js";
import { argon2Hasher } from "./domain/passwords.js";
import { PLAN_TIERS, type PlanTier } from "./domain/types.js";
import { authFields, authIndexes, mongoRepositories } from "./storage/index.js";

export interface DemoAccount {
  plan: string;
  orgId: string;
  email: string;
  password: string;
}

const title = (t: PlanTier) => t[0]!.toUpperCase() + t.slice(1);

/**
 * One demo organization per plan (`Demo Startup`, ...) with one user each
 * (`startup@demo.vulnscan.local`, ...), idempotently. Every call sets a fresh random password
 * (and turns MFA off, recording user.mfa_disabled for the service's outbox relay), so the
 * credentials it returns always work.
 */
export async function seedDemo(db: Db): Promise<DemoAccount[]> {
  await ensureIndexes(db, authIndexes, { fields: authFields });
  const repos = mongoRepositories(db);
  const now = () => new Date();
  const directory = new Directory({ orgs: repos.orgs, users: repos.users, hasher: argon2Hasher, now });
  const out: DemoAccount[] = [];
  for (const tier of PLAN_TIERS) {
    const name = `Demo ${title(tier)}`;
    let org = (await repos.orgs.findByName(name))[0];
    if (!org) org = (await directory.createOrganization(name, tier)).organization;
    else if (org.tier !== tier) await directory.setPlan(org.id, tier);

    const email = `${tier}@demo.vulnscan.local`;
    const password = randomBytes(18).toString("base64url");
    const existing = await repos.users.findByEmail(email);
    if (!existing) {
      await directory.createUser(org.id, email, password);
      out.push({ plan: tier, orgId: org.id, email, password });
      continue;
    }
    await repos.users.setPassword(existing.id, await argon2Hasher.hash(password));
    if (existing.mfa.enabled) {
      await repos.users.disableMfa(existing.orgId, existing.id, null, {
        type: "user.mfa_disabled",
        orgId: existing.orgId,
        userId: existing.id,
        email: existing.email,
        ip: "",
        userAgent: "seed-demo",
        occurredAt: now(),
      });
    }
    // The account's own counter and its counters per source: the printed password must work at once.
    await repos.attempts.reset(loginAttemptKey(email));
    await repos.attempts.resetPrefix(loginSourceAttemptKey(email, ""));
    out.push({ plan: tier, orgId: existing.orgId, email, password });
  }
  return out;
}
