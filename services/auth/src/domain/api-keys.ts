import { createHash, randomBytes } from "node:crypto";
import { newId, notFound, quotaExceeded, validationError } from "@vulnscan/kit/core";
import { apiKeysNotInPlan, invalidToken } from "./errors.js";
import { effectivePlan } from "./plans.js";
import type { ApiKeyRepository, AuthObserver, Clock, OrganizationRepository, UserRepository } from "./ports.js";
import type { AuthSettings } from "./settings.js";
import { PERMISSIONS, type ApiKey, type Permission } from "./types.js";
import { checkName } from "./validation.js";

export const API_KEY_PREFIX = "vsk_";
const KEY_FORMAT = /^vsk_[A-Za-z0-9_-]{43}$/;
const DISPLAY_PREFIX_LENGTH = 8;

/**
 * SHA-256, not a slow password hash: the value is 256 random bits, so there is nothing to
 * brute-force and a fast hash costs an attacker with the database as much as guessing the
 * key. It also lets VerifyApiKey find the key with one indexed lookup on every request.
 */
export const hashApiKey = (value: string) => createHash("sha256").update(value, "utf8").digest("hex");

export function newApiKeyValue(): string {
  return API_KEY_PREFIX + randomBytes(32).toString("base64url");
}

export function checkPermissions(raw: string[]): Permission[] {
  if (raw.length === 0) throw validationError("permissions", "At least one permission is required");
  const wanted = new Set<string>();
  for (const p of raw) {
    const perm = p.trim();
    if (!(PERMISSIONS as readonly string[]).includes(perm)) {
      throw validationError("permissions", `Unknown permission: ${perm.slice(0, 50)} (allowed: ${PERMISSIONS.join(", ")})`);
    }
    wanted.add(perm);
  }
  return PERMISSIONS.filter((p) => wanted.has(p));
}

export interface VerifiedApiKey {
  orgId: string;
  apiKeyId: string;
  permissions: Permission[];
  name: string;
  expiresAt: Date;
  createdByUserId: string;
}

export class ApiKeys {
  constructor(
    private readonly d: {
      orgs: OrganizationRepository;
      users: UserRepository;
      apiKeys: ApiKeyRepository;
      settings: AuthSettings;
      observer: AuthObserver;
      now: Clock;
    },
  ) {}

  /** The plan is checked first: a Startup caller hears "upgrade", whatever its request says. */
  async create(req: { orgId: string; userId: string; name: string; permissions: string[]; expiresAt?: Date }): Promise<{ apiKey: ApiKey; key: string }> {
    const { settings } = this.d;
    const org = req.orgId ? await this.d.orgs.get(req.orgId) : null;
    if (!org) throw notFound("Organization");
    if (!effectivePlan(org.tier, org.customLimits).apiKeysEnabled) throw apiKeysNotInPlan();
    const user = req.userId ? await this.d.users.get(org.id, req.userId) : null;
    if (!user) throw notFound("User");
    const name = checkName(req.name, "name", 100);
    const permissions = checkPermissions(req.permissions);
    const now = this.d.now();
    let expiresAt: Date;
    if (req.expiresAt) {
      if (Number.isNaN(req.expiresAt.getTime()) || req.expiresAt.getTime() <= now.getTime()) {
        throw validationError("expires_at", "expires_at must be in the future");
      }
      if (req.expiresAt.getTime() > now.getTime() + settings.apiKeyMaxTtlMs) {
        throw validationError("expires_at", "expires_at must be at most 2 years ahead");
      }
      expiresAt = req.expiresAt;
    } else {
      expiresAt = new Date(now.getTime() + settings.apiKeyDefaultTtlMs);
    }
    if ((await this.d.apiKeys.countActive(org.id, now)) >= settings.maxActiveApiKeys) {
      throw quotaExceeded("API_KEY_LIMIT_EXCEEDED", `An organization can have at most ${settings.maxActiveApiKeys} active API keys; revoke unused ones first`);
    }
    const value = newApiKeyValue();
    const apiKey: ApiKey = {
      id: newId("apikey", now.getTime()),
      orgId: org.id,
      name,
      permissions,
      createdAt: now,
      expiresAt,
      prefix: value.slice(0, DISPLAY_PREFIX_LENGTH),
      keyHash: hashApiKey(value),
      createdByUserId: user.id,
    };
    await this.d.apiKeys.insert(apiKey);
    return { apiKey, key: value };
  }

  async list(orgId: string): Promise<ApiKey[]> {
    if (!orgId) return [];
    return this.d.apiKeys.list(orgId);
  }

  /**
   * Idempotent for the organization's own keys; another organization's key is NOT_FOUND. The
   * revocation and its auth.api_key_revoked event are one write.
   */
  async revoke(orgId: string, keyId: string): Promise<ApiKey> {
    const key = orgId && keyId ? await this.d.apiKeys.get(orgId, keyId) : null;
    if (!key) throw notFound("API key");
    if (key.revokedAt) return key;
    const at = this.d.now();
    await this.d.apiKeys.revoke(orgId, keyId, at, { type: "auth.api_key_revoked", orgId, apiKeyId: keyId, expiresAt: key.expiresAt, occurredAt: at });
    return (await this.d.apiKeys.get(orgId, keyId)) ?? { ...key, revokedAt: at };
  }

  /**
   * Resolves an X-API-Key value. Every failure looks the same (INVALID_TOKEN): a caller
   * learns nothing about which keys exist or why one stopped working.
   */
  async verify(value: string): Promise<VerifiedApiKey> {
    const now = this.d.now();
    const fail = () => {
      this.d.observer.apiKeyVerified("invalid");
      return invalidToken();
    };
    if (!KEY_FORMAT.test(value)) throw fail();
    const key = await this.d.apiKeys.findByHash(hashApiKey(value));
    if (!key || key.revokedAt || key.expiresAt.getTime() <= now.getTime()) throw fail();
    const org = await this.d.orgs.get(key.orgId);
    if (!org || !effectivePlan(org.tier, org.customLimits).apiKeysEnabled) throw fail();
    // A disabled user's keys stop with them (a departing employee's CI key must not keep working).
    const creator = await this.d.users.get(key.orgId, key.createdByUserId);
    if (creator?.disabledAt) throw fail();
    if (!key.lastUsedAt || now.getTime() - key.lastUsedAt.getTime() >= this.d.settings.touchIntervalMs) {
      await this.d.apiKeys.touch(key.id, now);
    }
    this.d.observer.apiKeyVerified("valid");
    return {
      orgId: key.orgId,
      apiKeyId: key.id,
      permissions: key.permissions,
      name: key.name,
      expiresAt: key.expiresAt,
      createdByUserId: key.createdByUserId,
    };
  }
}
