import { validationError } from "@vulnscan/kit/core";

/** Emails are compared in this form everywhere (login, uniqueness). */
export const normalizeEmail = (raw: string) => raw.trim().toLowerCase();

// Deliberately simple: one @, no spaces, a dot in the domain. Deliverability is not our
// business; a clear error on obvious typos is.
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

export function checkEmail(email: string, field = "email"): string {
  const e = normalizeEmail(email);
  if (e.length === 0) throw validationError(field, "Email is required");
  if (e.length > 254 || !EMAIL.test(e)) throw validationError(field, "Email is not a valid address");
  return e;
}

export function checkName(raw: string, field: string, maxLength: number): string {
  const name = raw.trim();
  if (name.length === 0) throw validationError(field, `${field} is required`);
  if ([...name].length > maxLength) throw validationError(field, `${field} must be at most ${maxLength} characters`);
  if (/\p{Cc}/u.test(name)) throw validationError(field, `${field} must not contain control characters`);
  return name;
}
