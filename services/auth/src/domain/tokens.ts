import { randomUUID } from "node:crypto";
import { errors, exportJWK, generateKeyPair, importJWK, jwtVerify, SignJWT, type JWTPayload } from "jose";
import { LRUCache } from "lru-cache";
import { invalidToken, tokenExpired } from "./errors.js";
import type { Clock, SigningKeyRepository } from "./ports.js";
import type { AccessClaims, PublicJwk, SigningKey } from "./types.js";

export const ALGORITHM = "ES256";
/** The spec fixes the token lifetime: 1 hour (`expires_in` 3600). */
export const TOKEN_TTL_SECONDS = 3600;

export interface KeyringOptions {
  /** A key signs for this long, then the next generation takes over. */
  rotationMs: number;
  tokenTtlSeconds?: number;
  /** How long a replica may keep signing with the key it cached (it re-reads after this). */
  cacheMs?: number;
  now?: Clock;
}

type Key = Awaited<ReturnType<typeof importJWK>>;

/**
 * ES256 signing keys in generations. The newest generation signs; a unique index on the
 * generation makes "create the next key" a race with exactly one winner, so replicas that
 * start (or rotate) together end up with one active key. An older key stays published until
 * every token it can have signed has expired: the token lifetime plus the time a replica may
 * still sign with a cached key plus a margin for clock skew.
 */
export class Keyring {
  private cached?: { key: SigningKey; private: Key; readAt: number };
  /** Public keys imported for verification; a handful are published at once, so a few suffice. */
  private readonly imported = new LRUCache<string, Key>({ max: 16 });
  private readonly rotationMs: number;
  private readonly cacheMs: number;
  private readonly tokenTtlMs: number;
  private readonly now: Clock;

  constructor(
    private readonly repo: SigningKeyRepository,
    opts: KeyringOptions,
  ) {
    this.rotationMs = opts.rotationMs;
    this.cacheMs = opts.cacheMs ?? 30_000;
    this.tokenTtlMs = (opts.tokenTtlSeconds ?? TOKEN_TTL_SECONDS) * 1000;
    this.now = opts.now ?? (() => new Date());
  }

  /** How long a retired key stays published after its successor appeared. */
  get retentionMs(): number {
    return this.tokenTtlMs + this.cacheMs + 5 * 60_000;
  }

  private due(key: SigningKey | null, now: Date): boolean {
    return !key || now.getTime() - key.createdAt.getTime() >= this.rotationMs;
  }

  /** Makes sure a current key exists (creating or rotating when due); returns it. */
  async ensureCurrent(): Promise<SigningKey> {
    const now = this.now();
    const latest = await this.repo.latest();
    if (latest && !this.due(latest, now)) return latest;
    const next = await newSigningKey((latest?.generation ?? 0) + 1, now);
    // Losing the race is fine: the winner's key is the one everybody reads next.
    await this.repo.insert(next);
    const current = await this.repo.latest();
    if (!current) throw new Error("no signing key after creating one");
    return current;
  }

  /** Rotation housekeeping for a timer: rotate when due, drop keys nothing can need. */
  async maintain(): Promise<void> {
    await this.ensureCurrent();
    const published = await this.published();
    const oldest = published.at(-1);
    if (oldest) await this.repo.deleteOlderThan(oldest.generation);
  }

  private async signingKey(): Promise<{ key: SigningKey; private: Key }> {
    const now = this.now();
    const c = this.cached;
    if (c && now.getTime() - c.readAt < this.cacheMs && !this.due(c.key, now)) return c;
    const key = await this.ensureCurrent();
    const priv = c?.key.kid === key.kid ? c.private : await importJWK({ ...key.privateJwk }, ALGORITHM);
    this.cached = { key, private: priv, readAt: now.getTime() };
    return this.cached;
  }

  /** Keys that may have signed a token that has not expired yet, newest first. */
  async published(): Promise<SigningKey[]> {
    const now = this.now().getTime();
    const keys = await this.repo.all();
    const out: SigningKey[] = [];
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      const successor = keys[i - 1];
      if (!successor || successor.createdAt.getTime() + this.retentionMs > now) out.push(key);
      else break;
    }
    return out;
  }

  async sign(claims: AccessClaims): Promise<string> {
    const { key, private: priv } = await this.signingKey();
    const { iss, aud, sub, iat, exp, jti, ...custom } = claims;
    return new SignJWT(custom)
      .setProtectedHeader({ alg: ALGORITHM, kid: key.kid, typ: "JWT" })
      .setIssuer(iss)
      .setAudience(aud)
      .setSubject(sub)
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .setJti(jti)
      .sign(priv);
  }

  private async verificationKey(kid: string): Promise<Key | undefined> {
    const hit = this.imported.get(kid);
    if (hit) return hit;
    const published = await this.published();
    const key = published.find((k) => k.kid === kid);
    if (!key) return undefined;
    const imported = await importJWK({ ...key.publicJwk }, ALGORITHM);
    this.imported.set(kid, imported);
    return imported;
  }

  /**
   * Verifies signature, algorithm, issuer and audience. An expired token (with a valid
   * signature) is TOKEN_EXPIRED; anything else that fails is INVALID_TOKEN.
   */
  async verify(token: string, expected: { issuer: string; audience: string }): Promise<AccessClaims> {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(
        token,
        async (header) => {
          const key = typeof header.kid === "string" ? await this.verificationKey(header.kid) : undefined;
          if (!key) throw new errors.JWKSNoMatchingKey();
          return key;
        },
        {
          algorithms: [ALGORITHM],
          issuer: expected.issuer,
          audience: expected.audience,
          requiredClaims: ["sub", "iat", "exp", "jti"],
          currentDate: this.now(),
        },
      ));
    } catch (err) {
      if (err instanceof errors.JWTExpired) throw tokenExpired();
      throw invalidToken();
    }
    const { sub, org, sid, email, iat, exp, jti } = payload as JWTPayload & Record<string, unknown>;
    if (
      typeof sub !== "string" ||
      typeof org !== "string" ||
      typeof sid !== "string" ||
      typeof iat !== "number" ||
      typeof exp !== "number" ||
      typeof jti !== "string"
    ) {
      throw invalidToken();
    }
    return {
      iss: expected.issuer,
      aud: expected.audience,
      sub,
      org,
      sid,
      email: typeof email === "string" ? email : "",
      iat,
      exp,
      jti,
    };
  }
}

export async function newSigningKey(generation: number, now: Date): Promise<SigningKey> {
  const { publicKey, privateKey } = await generateKeyPair(ALGORITHM, { extractable: true });
  const pub = await exportJWK(publicKey);
  const priv = await exportJWK(privateKey);
  const publicJwk: PublicJwk = { kty: pub.kty ?? "EC", crv: pub.crv, x: pub.x, y: pub.y };
  return {
    kid: `key_${now.getTime().toString(36)}_${randomUUID().slice(0, 8)}`,
    generation,
    alg: ALGORITHM,
    publicJwk,
    privateJwk: { ...publicJwk, d: priv.d },
    createdAt: now,
  };
}

/** The claims of a new token: iat now, exp one token lifetime later but never past `notAfter`. */
export function accessClaims(
  base: { issuer: string; audience: string; userId: string; orgId: string; sessionId: string; email: string },
  now: Date,
  notAfter: Date,
  ttlSeconds = TOKEN_TTL_SECONDS,
): AccessClaims {
  const iat = Math.floor(now.getTime() / 1000);
  const exp = Math.min(iat + ttlSeconds, Math.floor(notAfter.getTime() / 1000));
  return {
    iss: base.issuer,
    aud: base.audience,
    sub: base.userId,
    org: base.orgId,
    sid: base.sessionId,
    email: base.email,
    iat,
    exp,
    jti: randomUUID(),
  };
}
