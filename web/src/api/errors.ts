// The spec's error body and how the console places it on a form.

export interface ErrorBody {
  detail: string;
  error_code: string;
  field?: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
  ) {
    super(body.detail);
  }
  get code(): string {
    return this.body.error_code;
  }
}

/** A response body as an ErrorBody, whatever the server (or a proxy in between) sent. */
export function errorBodyOf(status: number, parsed: unknown): ErrorBody {
  if (parsed && typeof parsed === "object" && typeof (parsed as ErrorBody).detail === "string") {
    const b = parsed as ErrorBody;
    return { detail: b.detail, error_code: typeof b.error_code === "string" ? b.error_code : `HTTP_${status}`, ...(b.field ? { field: b.field } : {}) };
  }
  return { detail: `The server answered ${status}`, error_code: `HTTP_${status}` };
}

/**
 * Which form field an error belongs to: the API names it in `field`, sometimes as a path
 * ("body.target", "frameworks/0", "update.status"); the form knows its own field names.
 * Errors without a field the form shows, or of another kind, go to the form-level message (null).
 */
export function fieldOf(error: ErrorBody, formFields: readonly string[]): string | null {
  if (!error.field) return null;
  const parts = error.field
    .replace(/\[(\d+)\]/g, ".$1")
    .split(/[./]/)
    .filter((p) => p && p !== "body" && p !== "query" && !/^\d+$/.test(p));
  for (let i = parts.length - 1; i >= 0; i--) {
    const name = parts[i]!;
    if (formFields.includes(name)) return name;
  }
  return null;
}

/** Errors keyed by form field, with "" for the form-level one. */
export function placeError(error: ErrorBody, formFields: readonly string[]): Record<string, string> {
  const f = fieldOf(error, formFields);
  return { [f ?? ""]: error.detail };
}
