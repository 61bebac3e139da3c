import CircuitBreaker from "opossum";
import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";

/** Codes that say "the caller asked for something wrong", not "the service is unwell". */
const CALLER_FAULT = new Set<Code>([
  Code.Canceled,
  Code.InvalidArgument,
  Code.NotFound,
  Code.AlreadyExists,
  Code.PermissionDenied,
  Code.ResourceExhausted,
  Code.FailedPrecondition,
  Code.Aborted,
  Code.OutOfRange,
  Code.Unauthenticated,
]);

export function isCallerFault(err: unknown): boolean {
  return err instanceof ConnectError && CALLER_FAULT.has(err.code);
}

export interface BreakerOptions {
  /** Failure percentage over the rolling window that opens the breaker. */
  errorThresholdPercentage?: number;
  /** How long the breaker stays open before letting a trial call through. */
  resetTimeoutMs?: number;
  rollingCountTimeoutMs?: number;
  /** Calls needed in the window before the percentage is trusted. */
  volumeThreshold?: number;
  onStateChange?: (service: string, state: "open" | "half_open" | "closed") => void;
}

/**
 * One breaker per upstream service. While open, calls fail fast with Unavailable instead
 * of piling up on a dead upstream; the gateway turns that into 503 with Retry-After.
 */
export function breakerInterceptor(opts: BreakerOptions = {}): Interceptor {
  const breakers = new Map<string, CircuitBreaker>();
  const breakerFor = (service: string) => {
    let b = breakers.get(service);
    if (!b) {
      b = new CircuitBreaker((call: () => Promise<unknown>) => call(), {
        timeout: false, // deadlines are the RPC's own (timeoutMs), not the breaker's
        errorThresholdPercentage: opts.errorThresholdPercentage ?? 50,
        resetTimeout: opts.resetTimeoutMs ?? 5000,
        rollingCountTimeout: opts.rollingCountTimeoutMs ?? 10_000,
        volumeThreshold: opts.volumeThreshold ?? 5,
        errorFilter: isCallerFault,
      });
      b.on("open", () => opts.onStateChange?.(service, "open"));
      b.on("halfOpen", () => opts.onStateChange?.(service, "half_open"));
      b.on("close", () => opts.onStateChange?.(service, "closed"));
      breakers.set(service, b);
    }
    return b;
  };
  return (next) => async (req) => {
    const breaker = breakerFor(req.service.typeName);
    try {
      return (await breaker.fire(() => next(req))) as Awaited<ReturnType<typeof next>>;
    } catch (err) {
      if ((err as { code?: string }).code === "EOPENBREAKER") {
        throw new ConnectError(`${req.service.typeName} is unavailable (circuit open)`, Code.Unavailable, undefined, undefined, err);
      }
      throw err;
    }
  };
}
