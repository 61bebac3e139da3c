/**
 * Request-validation failures (ajv's issues, all of them: validation.ts sets allErrors) as the
 * field errors a 422 lists, in plain words: "Target must not be empty." rather than ajv's
 * "must NOT have fewer than 1 characters", one error per field, in the order ajv met them.
 */

export interface AjvIssue {
  instancePath?: string;
  keyword?: string;
  message?: string;
  params?: {
    missingProperty?: string;
    additionalProperty?: string;
    allowedValues?: unknown[];
    allowedValue?: unknown;
    limit?: number;
    format?: string;
    type?: string | string[];
    pattern?: string;
    comparison?: string;
  };
}

export interface FieldError {
  field?: string;
  detail: string;
  error_code: "VALIDATION_ERROR";
}

/** At most this many field errors in one answer: a 1000-item body with every item wrong says enough with 50. */
export const MAX_FIELD_ERRORS = 50;

/** Names the request field at fault in an ajv issue: `target`, `update.status`, `finding_ids.3`. */
export function fieldOf(issue: AjvIssue): string | undefined {
  const path = (issue.instancePath ?? "").replace(/^\//, "").replace(/\//g, ".");
  const leaf = issue.params?.missingProperty ?? issue.params?.additionalProperty;
  if (leaf) return path ? `${path}.${leaf}` : leaf;
  return path || undefined;
}

/** A field path as words: `scan_type` → "Scan type", `finding_ids.3` → "Finding ids (item 4)". */
export function labelOf(field: string | undefined): string {
  if (!field) return "The request";
  const parts = field.split(".");
  const last = parts.at(-1)!;
  const words = (s: string) => s.replace(/_/g, " ");
  const label = /^\d+$/.test(last) && parts.length > 1 ? `${words(parts.at(-2)!)} (item ${Number(last) + 1})` : words(last);
  return label.charAt(0).toUpperCase() + label.slice(1);
}

const TYPE_WORDS: Record<string, string> = {
  integer: "a whole number",
  number: "a number",
  string: "text",
  boolean: "true or false",
  array: "a list",
  object: "an object",
  null: "null",
};

const FORMAT_WORDS: Record<string, string> = {
  "date-time": "a date and time, such as 2026-11-27T09:30:00Z",
  date: "a date, such as 2026-11-27",
  email: "an email address",
  uri: "a full URL, such as https://hooks.example.com/vulnscan",
  url: "a full URL, such as https://hooks.example.com/vulnscan",
};

/** Sentences for single fields whose rule reads better said outright. */
const FIELD_WORDS: Record<string, Partial<Record<string, string>>> = {
  authorized: {
    enum: "Confirm that you are authorized to scan this target (authorized must be true).",
    required: "Confirm that you are authorized to scan this target (authorized must be true).",
  },
};

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** One issue in plain words. */
export function wordsOf(issue: AjvIssue, field: string | undefined): string {
  const label = labelOf(field);
  const p = issue.params ?? {};
  const leaf = field?.split(".").at(-1) ?? "";
  const own = FIELD_WORDS[leaf]?.[issue.keyword ?? ""];
  if (own) return own;
  switch (issue.keyword) {
    case "required":
      return `${label} is required.`;
    case "additionalProperties":
      return `Remove ${field}: it is not a field of this request.`;
    case "type": {
      const types = [p.type ?? []].flat().map((t) => TYPE_WORDS[t] ?? t);
      return `${label} must be ${types.join(" or ")}.`;
    }
    case "enum": {
      const allowed = (p.allowedValues ?? []).map(String);
      if (allowed.length === 1) return `${label} must be ${allowed[0]}.`;
      return `${label} must be one of: ${allowed.join(", ")}.`;
    }
    case "const":
      return `${label} must be ${String(p.allowedValue)}.`;
    case "minLength":
      return p.limit === 1 ? `${label} must not be empty.` : `${label} must be at least ${plural(p.limit ?? 0, "character", "characters")} long.`;
    case "maxLength":
      return `${label} must be at most ${plural(p.limit ?? 0, "character", "characters")} long.`;
    case "minItems":
      return `${label} must list at least ${plural(p.limit ?? 0, "item", "items")}.`;
    case "maxItems":
      return `${label} must list at most ${plural(p.limit ?? 0, "item", "items")}.`;
    case "uniqueItems":
      return `${label} lists the same item twice.`;
    case "minimum":
      return `${label} must be ${p.limit} or more.`;
    case "maximum":
      return `${label} must be ${p.limit} or less.`;
    case "exclusiveMinimum":
      return `${label} must be more than ${p.limit}.`;
    case "exclusiveMaximum":
      return `${label} must be less than ${p.limit}.`;
    case "minProperties":
      return field ? `${label} must set at least one field.` : "The request must set at least one field.";
    case "format":
      return `${label} must be ${FORMAT_WORDS[p.format ?? ""] ?? `a valid ${p.format}`}.`;
    case "pattern": {
      const digits = /^\^\[0-9\]\{(\d+)\}\$$/.exec(p.pattern ?? "");
      return digits ? `${label} must be ${digits[1]} digits.` : `${label} is not in the expected form.`;
    }
    default:
      return field ? `${label} ${issue.message ?? "is invalid"}.` : `The request ${issue.message ?? "is invalid"}.`;
  }
}

/** `anyOf` of formats (a date or a date-time): one sentence naming every accepted form. */
function anyOfWords(issues: AjvIssue[], field: string | undefined): string {
  const formats = issues.filter((i) => i.keyword === "format").map((i) => FORMAT_WORDS[i.params?.format ?? ""]);
  if (formats.length > 0 && formats.every(Boolean)) return `${labelOf(field)} must be ${formats.join(", or ")}.`;
  return `${labelOf(field)} is not in an accepted form.`;
}

/**
 * Every field error of a failed validation, one per field, first met first. Issues of an `anyOf`
 * (one per branch, then the anyOf itself) make one error.
 */
export function fieldErrorsOf(issues: readonly AjvIssue[]): FieldError[] {
  const byField = new Map<string, AjvIssue[]>();
  for (const issue of issues) {
    const key = fieldOf(issue) ?? "";
    byField.set(key, [...(byField.get(key) ?? []), issue]);
  }
  const errors: FieldError[] = [];
  for (const [key, group] of byField) {
    const field = key || undefined;
    const detail = group.some((i) => i.keyword === "anyOf") ? anyOfWords(group, field) : wordsOf(group[0]!, field);
    errors.push(field ? { field, detail, error_code: "VALIDATION_ERROR" } : { detail, error_code: "VALIDATION_ERROR" });
    if (errors.length === MAX_FIELD_ERRORS) break;
  }
  return errors;
}
