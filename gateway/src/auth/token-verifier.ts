import { decodeProtectedHeader, errors, importJWK, jwtVerify, type JWTPayload } from "jose";
import { HttpError } from "../errors.js";

type VerifyKey = Awaited<ReturnType<typeof importJWK>>;

export interface Jwks {
  keys: { kid: string; kty: string; alg: string; crv: string; x: string; y: string; n: string; e: string }[];
  issuer: string;
  audience: string;
  cacheSeconds: number;
}

export interface TokenClaims {
  userId: string;
  orgId: string;
  sessionId: string;
  email: string;
  expiresAt: number;
}

/** The one algorithm we sign with; anything else (including `none`) is refused before any key lookup. */
const ALGORITHM = "ES256";
const REFRESH_MIN_INTERVAL_MS = 5000;

export const invalidToken = () => new HttpError(401, "INVALID_TOKEN", "Could not validate credentials", undefined, { "www-authenticate": "Bearer" });
export const tokenExpired = () => new HttpError(401, "TOKEN_EXPIRED", "Token has expired", undefined, { "www-authenticate": 'Bearer error="invalid_token"' });

/**
 * Verifies access tokens locally with the auth service's public keys. Keys are cached for the
 * time auth says; an unknown `kid` (a rotation) triggers one refetch, rate-limited so garbage
 * tokens cannot turn into a flood of key fetches.
 */
export class TokenVerifier {
  private keys = new Map<string, VerifyKey>();
  private issuer = "";
  private audience = "";
  private fetchedAt = 0;
  private ttlMs = 0;
  private refreshing?: Promise<void>;

  constructor(private readonly fetchJwks: () => Promise<Jwks>) {}

  private refresh(): Promise<void> {
    this.refreshing ??= (async () => {
      try {
        const jwks = await this.fetchJwks();
        const keys = new Map<string, VerifyKey>();
        for (const k of jwks.keys) {
          if (k.alg !== ALGORITHM) continue;
          keys.set(k.kid, await importJWK({ kty: k.kty, crv: k.crv, x: k.x, y: k.y }, ALGORITHM));
        }
        this.keys = keys;
        this.issuer = jwks.issuer;
        this.audience = jwks.audience;
        this.ttlMs = Math.max(jwks.cacheSeconds, 1) * 1000;
        this.fetchedAt = Date.now();
      } finally {
        this.refreshing = undefined;
      }
    })();
    return this.refreshing;
  }

  private async keyFor(kid: string): Promise<VerifyKey | undefined> {
    const age = Date.now() - this.fetchedAt;
    if (this.fetchedAt === 0 || age > this.ttlMs || (!this.keys.has(kid) && age > REFRESH_MIN_INTERVAL_MS)) {
      await this.refresh();
    }
    return this.keys.get(kid);
  }

  async verify(token: string): Promise<TokenClaims> {
    let kid: string | undefined;
    try {
      const header = decodeProtectedHeader(token);
      if (header.alg !== ALGORITHM || typeof header.kid !== "string") throw invalidToken();
      kid = header.kid;
    } catch {
      throw invalidToken();
    }
    const key = await this.keyFor(kid);
    if (!key) throw invalidToken();
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, key, {
        algorithms: [ALGORITHM],
        issuer: this.issuer,
        audience: this.audience,
        requiredClaims: ["exp", "iat", "sub"],
      }));
    } catch (err) {
      if (err instanceof errors.JWTExpired) throw tokenExpired();
      throw invalidToken();
    }
    const { sub, org, sid, email, exp } = payload as JWTPayload & { org?: unknown; sid?: unknown; email?: unknown };
    if (typeof sub !== "string" || typeof org !== "string" || typeof sid !== "string" || typeof exp !== "number") {
      throw invalidToken();
    }
    return { userId: sub, orgId: org, sessionId: sid, email: typeof email === "string" ? email : "", expiresAt: exp };
  }
}
