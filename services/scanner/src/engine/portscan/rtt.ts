/**
 * Per-host connect timeout from observed round trips, the way TCP computes its retransmission
 * timeout (RFC 6298: SRTT + 4·RTTVAR), clamped to [min, max]. A connect scan learns RTTs from
 * every answer (SYN-ACK or RST), so after the first few ports the timeout fits the path: short
 * on a LAN, long enough on a slow link that lost probes are told apart from filtered ports.
 */
export class RttEstimator {
  private srtt?: number;
  private rttvar = 0;
  samples = 0;

  constructor(private readonly bounds: { minMs: number; maxMs: number; initialMs: number }) {}

  observe(ms: number): void {
    this.samples++;
    if (this.srtt === undefined) {
      this.srtt = ms;
      this.rttvar = ms / 2;
      return;
    }
    this.rttvar = 0.75 * this.rttvar + 0.25 * Math.abs(this.srtt - ms);
    this.srtt = 0.875 * this.srtt + 0.125 * ms;
  }

  get smoothedMs(): number | undefined {
    return this.srtt;
  }

  /** Timeout for a probe's `attempt`-th try (0-based); retries back off exponentially. */
  timeoutMs(attempt = 0): number {
    const base = this.srtt === undefined ? this.bounds.initialMs : this.srtt + 4 * this.rttvar;
    const clamped = Math.min(this.bounds.maxMs, Math.max(this.bounds.minMs, base));
    return Math.min(this.bounds.maxMs, clamped * 2 ** attempt);
  }
}
