// The spec's error body and how the console places it on a form.

export interface FieldError {
  detail: string;
  error_code: string;
  field?: string;
}

export interface ErrorBody extends FieldError {
  /** Every field error of a 422 VALIDATION_ERROR (the first is also `detail`/`field`); absent on other errors. */
  errors?: FieldError[];
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
    const list = Array.isArray(b.errors) ? b.errors.filter((e): e is FieldError => !!e && typeof e === "object" && typeof e.detail === "string") : undefined;
    return {
      detail: b.detail,
      error_code: typeof b.error_code === "string" ? b.error_code : `HTTP_${status}`,
      ...(b.field ? { field: b.field } : {}),
      ...(list?.length
        ? { errors: list.map((e) => ({ detail: e.detail, error_code: e.error_code ?? "VALIDATION_ERROR", ...(e.field ? { field: e.field } : {}) })) }
        : {}),
    };
  }
  return { detail: `The server answered ${status}`, error_code: `HTTP_${status}` };
}

/**
 * Which form field an error belongs to: the API names it in `field`, sometimes as a path
 * ("body.target", "frameworks/0", "update.status"); the form knows its own field names.
 * Errors without a field the form shows, or of another kind, go to the form-level message (null).
 */
export function fieldOf(error: FieldError, formFields: readonly string[]): string | null {
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

/**
 * The validator's sentences (gateway/src/plugins/errors.ts over ajv's messages) in plain words,
 * shown under the field they are about: "target must NOT have fewer than 1 characters" reads
 * "Required.", "authorized must be one of: true" "Tick this box to confirm.".
 */
const PLAIN: [RegExp, (m: RegExpExecArray) => string][] = [
  [/^Field required: /, () => "Required."],
  [/ must NOT have fewer than 1 characters$/, () => "Required."],
  [/ must NOT have fewer than (\d+) characters$/, (m) => `Use at least ${m[1]} characters.`],
  [/ must NOT have more than (\d+) characters$/, (m) => `Use at most ${m[1]} characters.`],
  [/ must NOT have fewer than 1 items$/, () => "Choose at least one."],
  [/ must NOT have fewer than (\d+) items$/, (m) => `Choose at least ${m[1]}.`],
  [/ must NOT have more than (\d+) items$/, (m) => `Choose at most ${m[1]}.`],
  [/ must be one of: true$/, () => "Tick this box to confirm."],
  [/ must be one of: (.+)$/, (m) => `Choose one of: ${m[1]}.`],
  [/ must match format "email"$/, () => "Enter an email address."],
  [/ must match format "(date|date-time)"$/, () => "Enter a date."],
  [/ must match format "(uri|url)"$/, () => "Enter a full URL, such as https://hooks.example.com/vulnscan."],
  [/ must match pattern /, () => "Contains characters that are not allowed here."],
  [/ must be integer$/, () => "Enter a whole number."],
  [/ must be number$/, () => "Enter a number."],
  [/ must be >= (\S+)$/, (m) => `Enter ${m[1]} or more.`],
  [/ must be <= (\S+)$/, (m) => `Enter ${m[1]} or less.`],
];

/** An error's text for the field it is shown under: plain words, without the API's field name in front. */
export function plainWords(error: FieldError): string {
  const detail = error.detail.trim();
  if (error.error_code !== "VALIDATION_ERROR") return detail;
  // The attestation box: whatever the API's sentence, the person's action is ticking it.
  if (error.field?.split(/[./]/).pop() === "authorized") return "Tick this box to confirm.";
  for (const [re, say] of PLAIN) {
    const m = re.exec(detail);
    if (m) return say(m);
  }
  // "expires_at must be in the future" → "Must be in the future."
  const leaf = error.field?.split(/[./]/).pop();
  if (leaf && detail.startsWith(`${leaf} `)) {
    const rest = detail.slice(leaf.length + 1);
    return `${rest.charAt(0).toUpperCase()}${rest.slice(1)}${/[.!?]$/.test(rest) ? "" : "."}`;
  }
  return detail;
}

/** A field's name as words, for an error the form cannot place under one of its own fields. */
const fieldWords = (field: string) => {
  const leaf = field.split(/[./]/).pop() ?? field;
  const w = leaf.replace(/_/g, " ");
  return `${w.charAt(0).toUpperCase()}${w.slice(1)}`;
};

/** One error's place and words: its form field, or "" for the form-level message. */
function placeOne(error: FieldError, formFields: readonly string[]): [string, string] {
  const f = fieldOf(error, formFields);
  const plain = plainWords(error);
  if (f) return [f, plain];
  // A validation error of a field the form does not show: say which field, in words.
  return ["", error.error_code === "VALIDATION_ERROR" && error.field && plain !== error.detail ? `${fieldWords(error.field)}: ${plain}` : plain];
}

/**
 * Errors keyed by form field, with "" for the form-level one, in plain words. An answer with an
 * `errors` list puts every one on its field at once (several on one field are joined); an answer
 * without one (another error, an older gateway) places its single error.
 */
export function placeError(error: ErrorBody, formFields: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of error.errors?.length ? error.errors : [error]) {
    const [where, text] = placeOne(e, formFields);
    if (!out[where]?.includes(text)) out[where] = out[where] ? `${out[where]} ${text}` : text;
  }
  return out;
}
