import { newId, notFound, validationError } from "@vulnscan/kit/core";
import { emailTaken } from "./errors.js";
import { checkPasswordPolicy, type PasswordHasher } from "./passwords.js";
import { effectivePlan } from "./plans.js";
import { EmailTakenError, type Clock, type OrganizationRepository, type UserRepository } from "./ports.js";
import type { CustomLimits, Limit, Organization, Page, Plan, PlanTier, User } from "./types.js";
import { checkEmail, checkName } from "./validation.js";

export const DEFAULT_PER_PAGE = 20;
export const MAX_PER_PAGE = 100;
const MAX_LIMIT = 2_147_483_647; // int32 on the wire

export interface OrganizationView {
  organization: Organization;
  plan: Plan;
}

/** Organizations, their plans and their users: the operator's side of identity. */
export class Directory {
  constructor(private readonly d: { orgs: OrganizationRepository; users: UserRepository; hasher: PasswordHasher; now: Clock }) {}

  private view(org: Organization): OrganizationView {
    return { organization: org, plan: effectivePlan(org.tier, org.customLimits) };
  }

  private async org(orgId: string): Promise<Organization> {
    const org = orgId ? await this.d.orgs.get(orgId) : null;
    if (!org) throw notFound("Organization");
    return org;
  }

  async createOrganization(name: string, tier: PlanTier | undefined): Promise<OrganizationView> {
    const cleanName = checkName(name, "name", 200);
    if (!tier) throw validationError("tier", "tier must be startup, professional or enterprise");
    const now = this.d.now();
    const org: Organization = { id: newId("org", now.getTime()), name: cleanName, tier, createdAt: now };
    await this.d.orgs.insert(org);
    return this.view(org);
  }

  async getOrganization(orgId: string): Promise<OrganizationView> {
    return this.view(await this.org(orgId));
  }

  /** The signed-in user and their organization (GET /api/v1/auth/me); NOT_FOUND for a user of another organization. */
  async account(orgId: string, userId: string): Promise<{ user: User; organization: OrganizationView }> {
    const user = orgId && userId ? await this.d.users.get(orgId, userId) : null;
    if (!user) throw notFound("User");
    return { user, organization: this.view(await this.org(orgId)) };
  }

  async getPlan(orgId: string): Promise<Plan> {
    return this.view(await this.org(orgId)).plan;
  }

  /** The change and its auth.plan_changed event (the new effective plan) are one write. */
  async setPlan(orgId: string, tier: PlanTier | undefined, customLimits?: CustomLimits): Promise<OrganizationView> {
    if (!tier) throw validationError("tier", "tier must be startup, professional or enterprise");
    const custom = customLimits ? checkCustomLimits(customLimits) : undefined;
    const now = this.d.now();
    const plan = effectivePlan(tier, custom);
    const org = orgId ? await this.d.orgs.setPlan(orgId, tier, custom, { type: "auth.plan_changed", orgId, plan, occurredAt: now }) : null;
    if (!org) throw notFound("Organization");
    return this.view(org);
  }

  /**
   * Enterprise limits are "customised" in the spec: sets the given overrides on top of the
   * ones already set (what is not given stays). Only Enterprise organizations have them.
   */
  async setLimits(orgId: string, changes: CustomLimits): Promise<OrganizationView> {
    const org = await this.org(orgId);
    if (org.tier !== "enterprise") {
      throw validationError("plan", `Custom limits apply to Enterprise organizations; ${org.id} is on ${org.tier} (change it with set-plan first)`);
    }
    if (Object.keys(changes).length === 0) throw validationError("custom_limits", "Give at least one limit to set");
    return this.setPlan(org.id, org.tier, { ...org.customLimits, ...checkCustomLimits(changes) });
  }

  async listOrganizations(page = 0, perPage = 0): Promise<Page<OrganizationView>> {
    if (page < 0) throw validationError("page", "page must be 1 or more");
    if (perPage < 0) throw validationError("per_page", "per_page must be between 1 and 100");
    const p = page || 1;
    const pp = Math.min(perPage || DEFAULT_PER_PAGE, MAX_PER_PAGE);
    const { items, total } = await this.d.orgs.list(p, pp);
    return { items: items.map((o) => this.view(o)), total, page: p, perPage: pp, pages: Math.ceil(total / pp) };
  }

  async createUser(orgId: string, email: string, password: string): Promise<User> {
    const org = await this.org(orgId);
    const cleanEmail = checkEmail(email);
    checkPasswordPolicy(password);
    const now = this.d.now();
    const user: User = {
      id: newId("user", now.getTime()),
      orgId: org.id,
      email: cleanEmail,
      passwordHash: await this.d.hasher.hash(password),
      mfa: { enabled: false, lastUsedStep: 0 },
      createdAt: now,
    };
    try {
      await this.d.users.insert(user);
    } catch (err) {
      if (err instanceof EmailTakenError) throw emailTaken();
      throw err;
    }
    return user;
  }

  /** Operator: sets a new password (policy applies). */
  async setPassword(orgId: string, userId: string, password: string): Promise<void> {
    checkPasswordPolicy(password);
    const user = await this.d.users.get(orgId, userId);
    if (!user) throw notFound("User");
    await this.d.users.setPassword(user.id, await this.d.hasher.hash(password));
  }
}

function checkLimit(l: Limit | undefined, field: string): Limit | undefined {
  if (!l) return undefined;
  if (l.unlimited) return { unlimited: true, max: 0 };
  if (!Number.isInteger(l.max) || l.max < 0 || l.max > MAX_LIMIT) {
    throw validationError(`custom_limits.${field}`, `${field} must be a whole number of 0 or more, or unlimited`);
  }
  return { unlimited: false, max: l.max };
}

/** Overrides are per field: what an operator leaves out keeps the tier's value. */
export function checkCustomLimits(c: CustomLimits): CustomLimits {
  const out: CustomLimits = {};
  const set = <K extends keyof CustomLimits>(k: K, v: CustomLimits[K] | undefined) => {
    if (v !== undefined) out[k] = v;
  };
  set("requestsPerHour", checkLimit(c.requestsPerHour, "requests_per_hour"));
  set("requestsPerDay", checkLimit(c.requestsPerDay, "requests_per_day"));
  set("concurrentScans", checkLimit(c.concurrentScans, "concurrent_scans"));
  set("scansPerMonth", checkLimit(c.scansPerMonth, "scans_per_month"));
  set("webhooks", checkLimit(c.webhooks, "webhooks"));
  set("webhookEventsPerHour", checkLimit(c.webhookEventsPerHour, "webhook_events_per_hour"));
  set("aiCreditsPerMonth", checkLimit(c.aiCreditsPerMonth, "ai_credits_per_month"));
  if (c.minCidrPrefixLength !== undefined) {
    const p = c.minCidrPrefixLength;
    // /8 is already 16 million addresses; anything wider is not a scan, it is a sweep.
    if (!Number.isInteger(p) || p < 8 || p > 32) {
      throw validationError("custom_limits.min_cidr_prefix_length", "min_cidr_prefix_length must be between 8 and 32");
    }
    out.minCidrPrefixLength = p;
  }
  return out;
}
