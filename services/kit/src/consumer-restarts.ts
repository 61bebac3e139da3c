import type { Logger } from "./logger.js";

/** One running consumer as the restart policy sees it (kafka.ts adapts kafkajs' Consumer). */
export interface RunningConsumer {
  /** `restarting`: the client library restarts it by itself after this crash. */
  onCrash(listener: (err: Error, restarting: boolean) => void): void;
  stop(): Promise<void>;
}

export interface KeepRunningOptions {
  /** Creates, connects, subscribes and runs a new consumer of the group. */
  start: () => Promise<RunningConsumer>;
  log: Logger;
  /** True once the whole bus closes: a crash then is the close, not a failure. */
  closing: () => boolean;
  /** The pause before the n-th restart in a row (1, 2, …). */
  pauseMs?: (n: number) => number;
}

const defaultPause = (n: number) => Math.min(1000 * 2 ** (n - 1), 15_000);

/**
 * Keeps one consumer of a group running. kafkajs restarts a crashed consumer only after an
 * error it deems retriable; a broker restart can crash one with "Failed to find group
 * coordinator", which it does not (kafkajs issue #1630, open), and then nothing reads the
 * topic again while the process looks healthy: in the fault run a scan stayed pending because
 * the scanner's job consumer died that way. Such a crash, or a failed restart, starts a new
 * consumer of the same group after a pause (1 s, doubling up to 15 s); the group's committed
 * offsets say where it resumes, so nothing is skipped.
 */
export async function keepRunning(o: KeepRunningOptions): Promise<{ stop(): Promise<void> }> {
  const pause = o.pauseMs ?? defaultPause;
  let current: RunningConsumer | undefined;
  let stopped = false;
  let failures = 0;
  let timer: NodeJS.Timeout | undefined;

  const watch = (consumer: RunningConsumer) => {
    consumer.onCrash((err, restarting) => {
      if (restarting || stopped || o.closing() || consumer !== current) return;
      current = undefined;
      void consumer.stop().catch(() => undefined);
      later(err);
    });
  };
  const later = (err: unknown) => {
    failures++;
    const ms = pause(failures);
    o.log.error({ err, restartInMs: ms, restarts: failures }, "consumer stopped and its client will not restart it; starting a new one");
    timer = setTimeout(() => {
      timer = undefined;
      if (stopped || o.closing()) return;
      o.start().then(
        (consumer) => {
          if (stopped) return void consumer.stop().catch(() => undefined);
          current = consumer;
          failures = 0;
          watch(consumer);
          o.log.warn("consumer running again");
        },
        (e: unknown) => later(e),
      );
    }, ms);
    // A pending restart never holds a stopping process open.
    timer.unref();
  };

  current = await o.start();
  watch(current);
  return {
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await current?.stop();
      current = undefined;
    },
  };
}
