import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";
import { create } from "@bufbuild/protobuf";
import { ErrorDetailSchema } from "@vulnscan/proto/vulnscan/common/v1/errors_pb.js";
import type { Logger } from "./logger.js";

/**
 * What went wrong, in domain terms. Each kind maps to exactly one Connect code here
 * and to one HTTP status in the gateway, so the mapping lives in two tables only.
 */
export type ErrorKind = "validation" | "not_found" | "unauthenticated" | "forbidden" | "conflict" | "invalid_state" | "quota" | "unavailable";

export class DomainError extends Error {
  override name = "DomainError";
  constructor(
    readonly kind: ErrorKind,
    readonly errorCode: string,
    message: string,
    readonly field?: string,
    /** Seconds until a retry can succeed (quota and throttling errors). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

export const validationError = (field: string, message: string) => new DomainError("validation", "VALIDATION_ERROR", message, field);
export const notFound = (what: string) => new DomainError("not_found", "NOT_FOUND", `${what} not found`);
export const invalidState = (message: string) => new DomainError("invalid_state", "INVALID_STATE", message);
export const forbidden = (message: string, errorCode = "FORBIDDEN") => new DomainError("forbidden", errorCode, message);
export const unauthenticated = (errorCode: string, message: string) => new DomainError("unauthenticated", errorCode, message);
export const quotaExceeded = (errorCode: string, message: string, retryAfterSeconds?: number) =>
  new DomainError("quota", errorCode, message, undefined, retryAfterSeconds === undefined ? undefined : Math.max(1, Math.ceil(retryAfterSeconds)));
export const conflict = (message: string, errorCode = "CONFLICT") => new DomainError("conflict", errorCode, message);

const codeOfKind: Record<ErrorKind, Code> = {
  validation: Code.InvalidArgument,
  not_found: Code.NotFound,
  unauthenticated: Code.Unauthenticated,
  forbidden: Code.PermissionDenied,
  conflict: Code.AlreadyExists,
  invalid_state: Code.FailedPrecondition,
  quota: Code.ResourceExhausted,
  unavailable: Code.Unavailable,
};

/** Turns anything thrown by a handler into a ConnectError that never leaks internals. */
export function toConnectError(err: unknown): ConnectError {
  if (err instanceof DomainError) {
    return new ConnectError(err.message, codeOfKind[err.kind], undefined, [
      {
        desc: ErrorDetailSchema,
        value: create(ErrorDetailSchema, { errorCode: err.errorCode, field: err.field ?? "", retryAfterSeconds: err.retryAfterSeconds ?? 0 }),
      },
    ]);
  }
  if (err instanceof ConnectError) return err;
  return new ConnectError("Internal error", Code.Internal);
}

export interface ErrorInfo {
  errorCode?: string;
  field?: string;
  retryAfterSeconds?: number;
}

/** Reads the domain error code and field a service attached to a ConnectError. */
export function errorInfoOf(err: ConnectError): ErrorInfo {
  const [detail] = err.findDetails(ErrorDetailSchema);
  if (!detail) return {};
  return { errorCode: detail.errorCode || undefined, field: detail.field || undefined, retryAfterSeconds: detail.retryAfterSeconds || undefined };
}

/** Server interceptor: the one place domain errors become Connect codes. */
export function errorInterceptor(logger: Logger): Interceptor {
  return (next) => async (req) => {
    try {
      return await next(req);
    } catch (err) {
      const mapped = toConnectError(err);
      if (mapped.code === Code.Internal || mapped.code === Code.Unknown) {
        logger.error({ err, method: req.method.name }, "rpc failed unexpectedly");
      }
      throw mapped;
    }
  };
}
