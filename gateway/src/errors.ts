import { Code, type ConnectError } from "@connectrpc/connect";
import { errorInfoOf } from "@vulnscan/kit";

/** One field error of a validation failure. */
export interface FieldErrorBody {
  field?: string;
  detail: string;
  error_code: string;
}

/**
 * The spec's error body. `field` appears only when a request field is at fault. A validation
 * error also lists every field error in `errors` (an addition to the spec's shape: `detail` and
 * `field` stay those of the first), so a client can show them all at once.
 */
export interface ErrorBody {
  detail: string;
  error_code: string;
  field?: string;
  errors?: FieldErrorBody[];
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: string,
    detail: string,
    readonly field?: string,
    readonly headers: Record<string, string> = {},
    /** Every field error when there are several (request validation); else the one above. */
    readonly fieldErrors?: FieldErrorBody[],
  ) {
    super(detail);
  }

  body(): ErrorBody {
    const body = errorBody(this.message, this.errorCode, this.field);
    if (this.errorCode !== "VALIDATION_ERROR") return body;
    const errors = this.fieldErrors ?? (this.field ? [{ field: this.field, detail: this.message, error_code: this.errorCode }] : undefined);
    return errors ? { ...body, errors } : body;
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
