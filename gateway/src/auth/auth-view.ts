import { timestampMs, type Timestamp } from "@bufbuild/protobuf/wkt";
import type { Logger, PartitionOffset } from "@vulnscan/kit";
import type { GetAuthStateResponse, Plan } from "@vulnscan/proto/vulnscan/auth/v1/auth_service_pb.js";
import type { EventEnvelope } from "@vulnscan/proto/vulnscan/events/v1/envelope_pb.js";

/** Where the view's events come from: vulnscan.auth.events read from given offsets. */
export interface AuthEventFeed {
  /** The next offset of every partition: what a reader starting now would read first. */
  latestOffsets(): Promise<PartitionOffset[]>;
  /**
   * Reads every partition from exactly `startAt`, in a consumer group of this replica's own
   * (every replica sees every event). `onGap` is told when the reader stopped by itself.
   */
  follow(
    startAt: PartitionOffset[],
    onEvent: (event: EventEnvelope, partition: number) => void,
    onGap: (err: Error) => void,
  ): Promise<{ stop(): Promise<void> }>;
  /** Drops the connection and starts afresh (called before every resync but the first). */
  reset?(): Promise<void>;
}

export interface AuthViewOptions {
  feed: AuthEventFeed;
  /** AuthService.GetAuthState. */
  snapshot: () => Promise<GetAuthStateResponse>;
  /** Told of every plan change, and told to forget everything after a gap. */
  plans: { applyPlan(orgId: string, plan: Plan): void; clear(): void };
  /** Past this, a view that cannot show it is current refuses (AUTH_VIEW_MAX_STALENESS_MS). */
  maxStalenessMs: number;
  logger: Logger;
  now?: () => number;
  /** A sync step that takes longer than this failed (a broker or auth that does not answer). */
  stepTimeoutMs?: number;
}

const ms = (t: Timestamp | undefined, fallback: number) => (t ? timestampMs(t) : fallback);

function within<T>(p: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/**
 * One gateway replica's picture of what auth has revoked: revoked sessions (until their tokens
 * have expired), revoked API keys (until the keys expire), disabled users, and plan changes
 * passed on to the plan cache. Answers from memory on every request; no RPC, no database.
 *
 * Keeping it complete: take the latest offset of every partition, then load auth's snapshot,
 * then read the topic from those offsets. An event published before the offsets were taken was
 * stored (outbox: state and event in one write) before the snapshot was read, so the snapshot
 * has it; every later one is read. Applying an event twice is harmless (sets, and plan events
 * carry the whole plan in per-organization order). The same happens again after any gap: the
 * reader stopping by itself, or the view going stale.
 *
 * Live from the snapshot on: once it is loaded the view is complete as of the snapshot's time,
 * which is exactly what the staleness bound below measures, so it answers while the reader
 * joins its group in the background (a second or more of a gateway's start). Nothing published
 * meanwhile is lost, since the reader starts from the offsets taken before the snapshot; a reader
 * that cannot join fails the sync, and the view refuses until a resync succeeds.
 *
 * Showing it is current: auth writes a heartbeat to every partition every few seconds. Each
 * partition is current as of the emission time of the last heartbeat read from it (or of the
 * snapshot); the view is as old as its oldest partition. Past `maxStalenessMs` it refuses
 * (the guard answers 503) and resyncs by itself until it is current again. Staleness is
 * measured against auth's clock, so clocks must agree to well within the bound (NTP).
 */
export class AuthView {
  private readonly revokedSessions = new Map<string, number>();
  private readonly revokedKeys = new Map<string, number>();
  private readonly disabledUsers = new Set<string>();
  private readonly currentAsOf = new Map<number, number>();
  private live = false;
  private generation = 0;
  private follower?: { stop(): Promise<void> };
  private syncing?: Promise<void>;
  private watchdog?: NodeJS.Timeout;
  private retryTimer?: NodeJS.Timeout;
  private failures = 0;
  /** A sync attempt has been made: later ones start from a fresh connection. */
  private synced = false;
  private stopped = false;
  private readonly now: () => number;
  private readonly stepTimeoutMs: number;
  /** Listeners told when an API key is revoked (the key cache drops it). */
  private readonly keyRevokedListeners: ((apiKeyId: string) => void)[] = [];

  constructor(private readonly o: AuthViewOptions) {
    this.now = o.now ?? Date.now;
    this.stepTimeoutMs = o.stepTimeoutMs ?? 5000;
  }

  /** Starts syncing in the background; `ready` resolves once the view is first current. */
  start(): { ready: Promise<void> } {
    this.watchdog = setInterval(() => this.check(), Math.min(1000, Math.max(100, this.o.maxStalenessMs / 10)));
    this.watchdog.unref();
    this.resync("start");
    const ready = new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if (this.isCurrent() || this.stopped) {
          clearInterval(poll);
          resolve();
        }
      }, 20);
      poll.unref();
    });
    return { ready };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.generation++;
    clearInterval(this.watchdog);
    clearTimeout(this.retryTimer);
    await this.syncing?.catch(() => undefined);
    await this.stopFollower();
  }

  onApiKeyRevoked(listener: (apiKeyId: string) => void): void {
    this.keyRevokedListeners.push(listener);
  }

  /** Milliseconds since the moment up to which the view is known complete (Infinity before the first sync). */
  staleness(now = this.now()): number {
    if (!this.live || this.currentAsOf.size === 0) return Number.POSITIVE_INFINITY;
    let oldest = Number.POSITIVE_INFINITY;
    for (const t of this.currentAsOf.values()) if (t < oldest) oldest = t;
    return Math.max(0, now - oldest);
  }

  isCurrent(now = this.now()): boolean {
    return this.staleness(now) <= this.o.maxStalenessMs;
  }

  sessionRevoked(sessionId: string): boolean {
    return this.revokedSessions.has(sessionId);
  }

  apiKeyRevoked(apiKeyId: string): boolean {
    return this.revokedKeys.has(apiKeyId);
  }

  userDisabled(userId: string): boolean {
    return this.disabledUsers.has(userId);
  }

  /** Sizes, for metrics and tests. */
  get size() {
    return { revokedSessions: this.revokedSessions.size, revokedKeys: this.revokedKeys.size, disabledUsers: this.disabledUsers.size };
  }

  private check(): void {
    if (this.stopped || this.syncing || this.retryTimer) return;
    const now = this.now();
    this.prune(now);
    if (this.live && !this.isCurrent(now)) {
      this.o.logger.warn({ stalenessMs: this.staleness(now) }, "auth view is stale; refusing authenticated requests and resyncing");
      this.resync("stale");
    }
  }

  /** Forgets revocations that can no longer matter (their tokens or keys have expired). */
  private prune(now: number): void {
    for (const [id, until] of this.revokedSessions) if (until < now) this.revokedSessions.delete(id);
    for (const [id, until] of this.revokedKeys) if (until < now) this.revokedKeys.delete(id);
  }

  private async stopFollower(): Promise<void> {
    const f = this.follower;
    this.follower = undefined;
    if (f) await within(f.stop(), this.stepTimeoutMs, "stopping the event reader").catch(() => undefined);
  }

  private resync(why: string): void {
    if (this.stopped || this.syncing) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.live = false;
    const generation = ++this.generation;
    this.syncing = this.sync(generation)
      .then(() => {
        this.failures = 0;
        this.o.logger.info({ why, partitions: this.currentAsOf.size, ...this.size }, "auth view loaded and following vulnscan.auth.events");
      })
      .catch((err: Error) => {
        this.synced = true;
        // Loaded but never followed (the reader did not join): not known complete from here on.
        this.live = false;
        if (this.stopped) return;
        this.failures++;
        const delay = Math.min(500 * 2 ** Math.min(this.failures - 1, 4), 5000);
        this.o.logger.warn({ err: err.message, retryInMs: delay }, "auth view could not sync; refusing authenticated requests until it does");
        this.retryTimer = setTimeout(() => {
          this.retryTimer = undefined;
          this.resync("retry");
        }, delay);
        this.retryTimer.unref();
      })
      .finally(() => {
        this.syncing = undefined;
      });
  }

  private async sync(generation: number): Promise<void> {
    await this.stopFollower();
    if (this.synced) await this.o.feed.reset?.();
    const offsets = await within(this.o.feed.latestOffsets(), this.stepTimeoutMs, "reading the topic's offsets");
    if (offsets.length === 0) throw new Error("vulnscan.auth.events has no partitions");
    const snap = await within(this.o.snapshot(), this.stepTimeoutMs, "GetAuthState");
    if (generation !== this.generation) throw new Error("superseded");
    const now = this.now();
    const asOf = ms(snap.asOf, now);
    this.revokedSessions.clear();
    for (const s of snap.revokedSessions) this.revokedSessions.set(s.sessionId, ms(s.tokensValidUntil, now + 3_600_000));
    this.revokedKeys.clear();
    for (const k of snap.revokedApiKeys) {
      this.revokedKeys.set(k.apiKeyId, ms(k.expiresAt, now + 3_600_000));
      for (const l of this.keyRevokedListeners) l(k.apiKeyId);
    }
    this.disabledUsers.clear();
    for (const u of snap.disabledUsers) this.disabledUsers.add(u.userId);
    // Plan changes during the gap may be lost: ask auth again on the next request.
    this.o.plans.clear();
    this.currentAsOf.clear();
    for (const p of offsets) this.currentAsOf.set(p.partition, asOf);
    // Complete as of the snapshot (see the class comment): answer while the reader joins.
    this.live = true;

    const follower = await within(
      this.o.feed.follow(
        offsets,
        (event, partition) => {
          if (generation === this.generation) this.apply(event, partition);
        },
        (err) => {
          if (generation !== this.generation || this.stopped) return;
          this.o.logger.warn({ err: err.message }, "auth event reader stopped; resyncing");
          this.live = false;
          this.resync("reader stopped");
        },
      ),
      this.stepTimeoutMs,
      "subscribing to vulnscan.auth.events",
    );
    if (generation !== this.generation) {
      await follower.stop().catch(() => undefined);
      throw new Error("superseded");
    }
    this.follower = follower;
    this.synced = true;
  }

  /** Applies one event; unknown types (user.* for webhooks, future ones) are ignored. */
  apply(event: EventEnvelope, partition: number): void {
    const now = this.now();
    const p = event.payload;
    switch (p.case) {
      case "authHeartbeat": {
        const at = ms(event.occurredAt, 0);
        if (at > (this.currentAsOf.get(partition) ?? 0)) this.currentAsOf.set(partition, at);
        return;
      }
      case "authSessionRevoked":
        this.revokedSessions.set(p.value.sessionId, ms(p.value.tokensValidUntil, now + 3_600_000));
        return;
      case "authApiKeyRevoked":
        this.revokedKeys.set(p.value.apiKeyId, ms(p.value.expiresAt, now + 3_600_000));
        for (const l of this.keyRevokedListeners) l(p.value.apiKeyId);
        return;
      case "authUserDisabled":
        this.disabledUsers.add(p.value.userId);
        return;
      case "authUserEnabled":
        this.disabledUsers.delete(p.value.userId);
        return;
      case "authPlanChanged":
        if (p.value.plan && event.orgId) this.o.plans.applyPlan(event.orgId, p.value.plan);
        return;
      default:
        return;
    }
  }
}
