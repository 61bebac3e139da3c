import { DomainError, forbidden, quotaExceeded, unauthenticated } from "@vulnscan/kit/core";

/*
 * Identity's errors, with the spec's texts where the spec gives them. The kit's interceptor maps
 * the kinds to Connect codes (unauthenticated → UNAUTHENTICATED, quota → RESOURCE_EXHAUSTED, ...).
 */

/** Unknown email and wrong password answer exactly this, so neither is revealed. */
export const invalidCredentials = () => unauthenticated("INVALID_CREDENTIALS", "Incorrect email or password");
export const mfaRequired = () => unauthenticated("MFA_REQUIRED", "MFA code required");
export const invalidMfaCode = () => unauthenticated("INVALID_MFA_CODE", "Invalid or already used MFA code");
export const tokenExpired = () => unauthenticated("TOKEN_EXPIRED", "Token has expired");
export const invalidToken = () => unauthenticated("INVALID_TOKEN", "Could not validate credentials");
export const tooManyAttempts = (retryAfterSeconds: number) =>
  quotaExceeded("TOO_MANY_ATTEMPTS", "Too many failed attempts; try again in a few minutes", retryAfterSeconds);
export const apiKeysNotInPlan = () => forbidden("API keys require the Professional or Enterprise plan", "PLAN_UPGRADE_REQUIRED");
/** Emails are login names, unique across organizations (ALREADY_EXISTS, field `email`). */
export const emailTaken = () => new DomainError("conflict", "VALIDATION_ERROR", "A user with this email already exists", "email");
