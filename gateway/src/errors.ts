import { Code, type ConnectError } from "@connectrpc/connect";
import { errorInfoOf } from "@vulnscan/kit";

/** The spec's error body. `field` appears only when a request field is at fault. */
export interface ErrorBody {
  detail: string;
  error_code: string;
  field?: string;
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: string,
    detail: string,
    readonly field?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }

  body(): ErrorBody {
    return errorBody(this.message, this.errorCode, this.field);
  }
}

export function errorBody(detail: string, errorCode: string, field?: string): ErrorBody {
  return field ? { detail, error_code: errorCode, field } : { detail, error_code: errorCode };
}

/** Connect code → HTTP status and the error code used when the service sent none. */
const httpOfCode: Partial<Record<Code, [number, string]>> = {
  [Code.InvalidArgument]: [422, "VALIDATION_ERROR"],
  [Code.NotFound]: [404, "NOT_FOUND"],
  [Code.AlreadyExists]: [409, "CONFLICT"],
  [Code.Unauthenticated]: [401, "NOT_AUTHENTICATED"],
  [Code.PermissionDenied]: [403, "FORBIDDEN"],
  [Code.FailedPrecondition]: [400, "INVALID_STATE"],
  [Code.ResourceExhausted]: [429, "RATE_LIMIT_EXCEEDED"],
  [Code.Unavailable]: [503, "SERVICE_UNAVAILABLE"],
  [Code.DeadlineExceeded]: [504, "UPSTREAM_TIMEOUT"],
};

/** The one translation from an upstream RPC failure to the spec's HTTP error. */
export function httpErrorOfConnect(err: ConnectError): HttpError {
  const mapped = httpOfCode[err.code];
  if (!mapped) return new HttpError(500, "INTERNAL_ERROR", "Internal server error");
  const [status, defaultCode] = mapped;
  const info = errorInfoOf(err);
  if (status === 503) {
    return new HttpError(503, "SERVICE_UNAVAILABLE", "A required service is unavailable; retry shortly", undefined, {
      "retry-after": "5",
    });
  }
  if (status === 504) return new HttpError(504, "UPSTREAM_TIMEOUT", "A required service did not answer in time");
  const headers: Record<string, string> = status === 429 && info.retryAfterSeconds ? { "retry-after": String(info.retryAfterSeconds) } : {};
  return new HttpError(status, info.errorCode ?? defaultCode, err.rawMessage, info.field, headers);
}
