import { createHash } from "node:crypto";
import { timestampMs } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, type Client } from "@connectrpc/connect";
import type { AuthService } from "@vulnscan/proto/vulnscan/auth/v1/auth_service_pb.js";
import { LRUCache } from "lru-cache";
import { HttpError } from "../errors.js";
import { upTo } from "@vulnscan/kit/lru";
import type { PlanCache } from "../plans.js";
import type { AuthView } from "./auth-view.js";
import { PERMISSIONS, type Permission, type Principal } from "./principal.js";
import { invalidToken, tokenExpired, type TokenClaims, type TokenVerifier } from "./token-verifier.js";

interface CachedKey {
  orgId: string;
  apiKeyId: string;
  name: string;
  permissions: Permission[];
  expiresAt: number;
  createdByUserId: string;
}

export interface AuthenticatorOptions {
  verifier: TokenVerifier;
  auth: Pick<Client<typeof AuthService>, "verifyApiKey">;
  view: AuthView;
  plans: PlanCache;
  /** Seconds a client is told to wait when the view is stale. */
  retryAfterSeconds?: number;
  now?: () => number;
  maxTokens?: number;
  maxKeys?: number;
}

export const authStateUnavailable = (retryAfterSeconds: number) =>
  new HttpError(503, "SERVICE_UNAVAILABLE", "Authentication is temporarily unavailable; retry shortly", undefined, {
    "retry-after": String(retryAfterSeconds),
  });

const notAuthenticated = () => new HttpError(401, "NOT_AUTHENTICATED", "Not authenticated", undefined, { "www-authenticate": "Bearer" });

/** A bad or unknown key: the same answer whatever the reason (INVALID_TOKEN, as auth says). */
const UNKNOWN_KEY_TTL_MS = 30_000;

/**
 * Who is calling, from memory. Bearer tokens are verified locally (signature with auth's
 * published keys) once and the claims kept until the token's `exp`; API keys are resolved
 * once by auth's VerifyApiKey and kept by key hash until they expire. Every request then
 * checks the AuthView (revoked sessions and keys, disabled users) and the plan cache, both
 * in memory, so the steady state makes no RPC and no database read. When the view cannot
 * show it is current, authenticated requests are refused with 503 rather than risk
 * admitting a revoked credential.
 */
export class Authenticator {
  private readonly tokens: LRUCache<string, TokenClaims>;
  private readonly keys: LRUCache<string, CachedKey>;
  private readonly unknownKeys: LRUCache<string, true>;
  private readonly keyCalls = new Map<string, Promise<CachedKey>>();
  /** Key hashes by key id, so a revocation drops the cached entry at once. */
  private readonly hashesById = new Map<string, string>();
  private readonly now: () => number;
  private readonly retryAfter: number;

  constructor(private readonly o: AuthenticatorOptions) {
    this.now = o.now ?? Date.now;
    this.retryAfter = o.retryAfterSeconds ?? 5;
    this.tokens = new LRUCache(upTo(o.maxTokens ?? 100_000));
    this.keys = new LRUCache({
      ...upTo(o.maxKeys ?? 50_000),
      dispose: (v, hash) => {
        if (this.hashesById.get(v.apiKeyId) === hash) this.hashesById.delete(v.apiKeyId);
      },
    });
    this.unknownKeys = new LRUCache({ ...upTo(10_000), ttl: UNKNOWN_KEY_TTL_MS });
    o.view.onApiKeyRevoked((id) => {
      const hash = this.hashesById.get(id);
      if (hash) this.keys.delete(hash);
    });
  }

  async authenticate(headers: { authorization?: string; "x-api-key"?: string | string[] }): Promise<Principal> {
    const authorization = headers.authorization;
    if (typeof authorization === "string" && authorization.trim() !== "") {
      const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
      if (!match) throw invalidToken();
      return this.bearer(match[1]!);
    }
    const apiKey = headers["x-api-key"];
    if (typeof apiKey === "string" && apiKey.trim() !== "") return this.apiKey(apiKey.trim());
    throw notAuthenticated();
  }

  private async bearer(token: string): Promise<Principal> {
    const now = this.now();
    let claims = this.tokens.get(token);
    if (!claims) {
      claims = await this.o.verifier.verify(token);
      this.tokens.set(token, claims, { ttl: Math.max(1, claims.expiresAt * 1000 - now) });
    } else if (claims.expiresAt * 1000 <= now) {
      this.tokens.delete(token);
      throw tokenExpired();
    }
    if (!this.o.view.isCurrent(now)) throw authStateUnavailable(this.retryAfter);
    const { view } = this.o;
    if (view.sessionRevoked(claims.sessionId) || view.userDisabled(claims.userId)) throw invalidToken();
    return { kind: "user", orgId: claims.orgId, userId: claims.userId, sessionId: claims.sessionId, email: claims.email, token };
  }

  private async apiKey(value: string): Promise<Principal> {
    const hash = createHash("sha256").update(value, "utf8").digest("hex");
    const now = this.now();
    if (!this.o.view.isCurrent(now)) throw authStateUnavailable(this.retryAfter);
    if (this.unknownKeys.has(hash)) throw invalidToken();
    const key = this.keys.get(hash) ?? (await this.resolveKey(hash, value));
    const { view } = this.o;
    if (key.expiresAt <= now || view.apiKeyRevoked(key.apiKeyId) || view.userDisabled(key.createdByUserId)) {
      this.keys.delete(hash);
      throw invalidToken();
    }
    // A plan without API keys (a downgrade) stops them at once; the plan cache follows the events.
    const { plan } = await this.o.plans.get(key.orgId);
    if (!plan.apiKeysEnabled) throw invalidToken();
    return { kind: "api_key", orgId: key.orgId, apiKeyId: key.apiKeyId, name: key.name, permissions: key.permissions };
  }

  /** One VerifyApiKey per key (concurrent first uses share it); an unknown key is remembered briefly. */
  private resolveKey(hash: string, value: string): Promise<CachedKey> {
    const pending = this.keyCalls.get(hash);
    if (pending) return pending;
    const call = this.o.auth
      .verifyApiKey({ key: value })
      .then((r) => {
        const key: CachedKey = {
          orgId: r.orgId,
          apiKeyId: r.apiKeyId,
          name: r.name,
          permissions: r.permissions.filter((p): p is Permission => (PERMISSIONS as readonly string[]).includes(p)),
          expiresAt: r.expiresAt ? timestampMs(r.expiresAt) : this.now() + 60_000,
          createdByUserId: r.createdByUserId,
        };
        // Revocations that arrived while the call was in flight are in the view: checked by the caller.
        this.keys.set(hash, key, { ttl: Math.max(1, key.expiresAt - this.now()) });
        this.hashesById.set(key.apiKeyId, hash);
        return key;
      })
      .catch((err: unknown) => {
        if (err instanceof ConnectError && err.code === Code.Unauthenticated) this.unknownKeys.set(hash, true);
        throw err;
      })
      .finally(() => this.keyCalls.delete(hash));
    this.keyCalls.set(hash, call);
    return call;
  }
}
