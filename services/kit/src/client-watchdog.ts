import type { Logger } from "./logger.js";
import { type PeriodicJob, startPeriodic } from "./periodic.js";

export interface ClientWatchdogOptions {
  /** Names the client in the log line ("mongo"). */
  name: string;
  /** The long-lived client's health check. */
  ping: () => Promise<void>;
  /** The same check through a new, short-lived client (a fresh connection, fresh discovery). */
  pingFresh: () => Promise<void>;
  /** Called once when the long-lived client is judged stuck; the service exits to be restarted. */
  onStuck: (why: string) => void;
  logger: Pick<Logger, "warn" | "error">;
  intervalMs?: number;
  /** How long the long-lived client must have failed before a fresh one is tried. */
  failingForMs?: number;
  now?: () => number;
}

/**
 * Watches a long-lived client for the one failure a restart cures: the server is back, yet
 * the client keeps failing. Seen in the fault run with the MongoDB driver on FerretDB: after
 * a database outage one service's client answered `connection 2 … closed` for minutes while
 * a new connection worked (its server monitor never produced a new description). A client
 * that has failed for `failingForMs` while a fresh client succeeds is declared stuck; a
 * database that is really down fails both, and the service only waits (unready) as before.
 */
export function watchClient(opts: ClientWatchdogOptions): PeriodicJob {
  const now = opts.now ?? Date.now;
  const failingForMs = opts.failingForMs ?? 60_000;
  let failingSince: number | undefined;
  let reported = false;
  return startPeriodic({
    name: `${opts.name} client watchdog`,
    intervalMs: opts.intervalMs ?? 10_000,
    logger: opts.logger,
    run: async () => {
      if (reported) return;
      try {
        await opts.ping();
        failingSince = undefined;
        return;
      } catch (err) {
        failingSince ??= now();
        if (now() - failingSince < failingForMs) return;
        const fresh = await opts.pingFresh().then(
          () => true,
          () => false,
        );
        if (!fresh) return;
        reported = true;
        const why = `the ${opts.name} client has failed for ${Math.round((now() - failingSince) / 1000)} s (${(err as Error).message}) while a new connection succeeds`;
        opts.logger.error({ client: opts.name }, `${why}; restarting`);
        opts.onStuck(why);
      }
    },
  });
}
