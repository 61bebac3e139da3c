import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";
import { create } from "@bufbuild/protobuf";
import { ErrorDetailSchema } from "@vulnscan/proto/vulnscan/common/v1/errors_pb.js";
import { DomainError, type ErrorKind } from "./domain-errors.js";
import type { Logger } from "./logger.js";

export * from "./domain-errors.js";

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
