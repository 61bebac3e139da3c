/**
 * Concurrency window for the connect scanner: additive increase, multiplicative decrease.
 * Answers (open or closed) grow the window; a burst of timeouts (congestion or a rate-limiting
 * firewall) or a local resource error (EMFILE, ENOBUFS, EADDRNOTAVAIL) halves it. A handful of
 * filtered ports must not throttle the scan, so timeouts only count as congestion when they are
 * a large share of the recent outcomes; and one burst halves the window once, not once per probe.
 *
 * Growth is also gated on latency (as in TCP Vegas): while answers come back about as fast as
 * the fastest one seen, more probes in flight mean more throughput; once the smoothed answer
 * time climbs well above that floor, the extra probes only queue (in the network or in our own
 * event loop) and the window stops growing. On a LAN this keeps the window small, which is
 * faster there; over a 20 ms link it lets the window grow into the thousands.
 */
export class AimdWindow {
  private value: number;
  private recent: boolean[] = [];
  private recentTimeouts = 0;
  /** Probes started before the last decrease cannot trigger another one. */
  private epoch = 0;
  private minRtt = Infinity;
  private avgRtt?: number;

  constructor(private readonly opts: { initial: number; min: number; max: number; window?: number; congestionShare?: number }) {
    this.value = opts.initial;
  }

  get limit(): number {
    return Math.floor(this.value);
  }

  get currentEpoch(): number {
    return this.epoch;
  }

  answered(rttMs?: number): void {
    this.record(false);
    if (rttMs !== undefined) {
      this.minRtt = Math.min(this.minRtt, rttMs);
      this.avgRtt = this.avgRtt === undefined ? rttMs : 0.95 * this.avgRtt + 0.05 * rttMs;
      if (this.avgRtt > this.minRtt * 2 + 1) return;
    }
    // Slow-start-like growth while far below the cap, then additive (≈ +1 per window).
    this.value = Math.min(this.opts.max, this.value + (this.value < this.opts.max / 4 ? 1 : 1 / Math.max(1, this.value / 8)));
  }

  timedOut(startedEpoch: number): void {
    this.record(true);
    const window = this.opts.window ?? 200;
    const share = this.opts.congestionShare ?? 0.25;
    if (startedEpoch === this.epoch && this.recent.length >= window / 4 && this.recentTimeouts / this.recent.length > share) this.decrease();
  }

  /** The kernel or process ran out of something: back off at once. */
  resourceError(inFlight: number, startedEpoch: number): void {
    if (startedEpoch !== this.epoch) return;
    this.value = Math.max(this.opts.min, Math.min(this.value, inFlight) / 2);
    this.epoch++;
  }

  private decrease(): void {
    this.value = Math.max(this.opts.min, this.value / 2);
    this.epoch++;
    this.recent = [];
    this.recentTimeouts = 0;
  }

  private record(timeout: boolean): void {
    const window = this.opts.window ?? 200;
    this.recent.push(timeout);
    if (timeout) this.recentTimeouts++;
    if (this.recent.length > window && this.recent.shift()) this.recentTimeouts--;
  }
}
