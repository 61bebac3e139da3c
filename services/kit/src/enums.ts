import { validationError } from "./domain-errors.js";

/** A proto enum as protobuf-es generates it: names (prefix stripped) ⇄ numbers. */
type ProtoEnum = Record<string, string | number>;

/*
 * The one enum ⇄ string convention of the repository, by name: a proto enum value's REST and
 * domain string is its generated name in lower case (`Severity.CRITICAL` → "critical",
 * `FindingStatus.IN_PROGRESS` → "in_progress"), and back. The gateway and every service use
 * these three functions; nothing maps enums by position.
 */

/** The string of an enum value; "" for UNSPECIFIED (0) or a number the enum does not have. */
export function enumName(e: ProtoEnum, value: number): string {
  return value === 0 ? "" : String(e[value] ?? "").toLowerCase();
}

/**
 * The enum value a string names. For strings a schema has already checked (the gateway's
 * validated requests, stored domain values): a string that names no value is a bug, and throws.
 */
export function enumValue<E extends ProtoEnum>(e: E, name: string): E[keyof E] {
  const value = e[name.toUpperCase() as keyof E];
  if (typeof value !== "number" || value === 0) throw new Error(`"${name}" is not a value of this enum`);
  return value;
}

/**
 * The string of an enum value that must be one of `allowed` (an RPC request's field): a
 * VALIDATION_ERROR naming `field` when it is UNSPECIFIED, unknown, or not allowed.
 */
export function enumNameIn<T extends string>(e: ProtoEnum, value: number, allowed: readonly T[], field: string): T {
  const name = enumName(e, value);
  if (!(allowed as readonly string[]).includes(name)) throw validationError(field, `${field} must be one of: ${allowed.join(", ")}`);
  return name as T;
}
