/**
 * What went wrong, in domain terms. Each kind maps to exactly one Connect code (errors.ts)
 * and to one HTTP status in the gateway, so the mapping lives in two tables only. This module
 * imports nothing, so a domain can throw these without depending on any transport.
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
