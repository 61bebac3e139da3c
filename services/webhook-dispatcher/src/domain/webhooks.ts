import { forbidden, newId, notFound, validationError } from "@vulnscan/kit/core";
import type { Clock, PlanPort, UrlChecker, WebhookCount, WebhookRepo } from "./ports.js";
import type { Webhook } from "./types.js";

/** The fields a user writes (create body, PATCH). */
export interface WebhookInput {
  name?: string;
  url?: string;
  events?: string[];
  /** undefined: unchanged; "": removed (PATCH only). */
  secret?: string;
  active?: boolean;
}

export const SECRET_MIN = 8;
export const SECRET_MAX = 256;
export const NAME_MAX = 100;

function cleanName(name: string): string {
  const n = name.trim();
  if (n.length === 0 || n.length > NAME_MAX) throw validationError("name", `name must be 1-${NAME_MAX} characters`);
  return n;
}

function cleanEvents(events: string[], kinds: readonly string[]): string[] {
  if (events.length === 0) throw validationError("events", "events must name at least one event kind");
  const unknown = events.find((e) => !kinds.includes(e));
  if (unknown !== undefined) throw validationError("events", `Unknown event kind "${unknown}"; allowed: ${kinds.join(", ")}`);
  return [...new Set(events)];
}

function cleanSecret(secret: string): string {
  if (secret.length < SECRET_MIN || secret.length > SECRET_MAX) throw validationError("secret", `secret must be ${SECRET_MIN}-${SECRET_MAX} characters`);
  return secret;
}

export interface RegistryDeps {
  webhooks: WebhookRepo;
  count: WebhookCount;
  plans: PlanPort;
  urls: UrlChecker;
  now: Clock;
  /** The event kinds a webhook may subscribe to (the event contract's customer kinds). */
  eventKinds: readonly string[];
}

/** Webhook registrations (the API's CRUD): validation, the plan's gate and exact webhook count, organization scoping. */
export class WebhookRegistry {
  constructor(private readonly deps: RegistryDeps) {}

  private async checkUrl(url: string): Promise<string> {
    try {
      await this.deps.urls.check(url);
    } catch (err) {
      throw validationError("url", (err as Error).message);
    }
    return url;
  }

  async create(orgId: string, input: WebhookInput): Promise<Webhook> {
    const plan = await this.deps.plans.webhookPlan(orgId);
    if (!plan.enabled) throw forbidden("Webhooks require the Professional or Enterprise plan", "PLAN_UPGRADE_REQUIRED");
    const now = this.deps.now();
    const webhook: Webhook = {
      id: newId("webhook", now.getTime()),
      orgId,
      name: cleanName(input.name ?? ""),
      url: await this.checkUrl(input.url ?? ""),
      events: cleanEvents(input.events ?? [], this.deps.eventKinds),
      ...(input.secret !== undefined ? { secret: cleanSecret(input.secret) } : {}),
      active: input.active ?? true,
      createdAt: now,
      updatedAt: now,
    };
    // Counted in before it exists: 20 concurrent creates still leave at most `max`.
    if (plan.maxWebhooks !== undefined && !(await this.deps.count.reserve(orgId, plan.maxWebhooks, webhook.id))) {
      throw forbidden(`Your plan allows ${plan.maxWebhooks} webhooks; delete one or upgrade`, "PLAN_UPGRADE_REQUIRED");
    }
    try {
      await this.deps.webhooks.insert(webhook);
    } catch (err) {
      await this.deps.count.release(orgId, webhook.id);
      throw err;
    }
    return webhook;
  }

  async get(orgId: string, id: string): Promise<Webhook> {
    const w = await this.deps.webhooks.get(orgId, id);
    if (!w) throw notFound("Webhook");
    return w;
  }

  list(orgId: string, page: number, perPage: number) {
    return this.deps.webhooks.list(orgId, (page - 1) * perPage, perPage);
  }

  async update(orgId: string, id: string, input: WebhookInput): Promise<Webhook> {
    const w = { ...(await this.get(orgId, id)) };
    if (input.name !== undefined) w.name = cleanName(input.name);
    if (input.url !== undefined) w.url = await this.checkUrl(input.url);
    if (input.events !== undefined) w.events = cleanEvents(input.events, this.deps.eventKinds);
    if (input.secret === "") delete w.secret;
    else if (input.secret !== undefined) w.secret = cleanSecret(input.secret);
    if (input.active !== undefined) {
      w.active = input.active;
      // Re-enabling starts the failure clock over; a user's disable carries no dispatcher reason.
      delete w.disabledReason;
      delete w.failingSince;
    }
    w.updatedAt = this.deps.now();
    await this.deps.webhooks.update(w, input.active !== undefined);
    return w;
  }

  async remove(orgId: string, id: string): Promise<void> {
    if (!(await this.deps.webhooks.remove(orgId, id))) throw notFound("Webhook");
    await this.deps.count.release(orgId, id);
  }
}
