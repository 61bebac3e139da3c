// Request bodies built from the console's forms: what the user typed, in the API's shape. The
// API validates; these only decide which fields are sent (pure, unit-tested).

/** A form field's trimmed text, "" when absent. */
export const text = (f: FormData, name: string) => String(f.get(name) ?? "").trim();

/**
 * POST/PATCH /api/v1/webhooks. The secret is write-only: an empty field sends none (keeps the
 * current one when editing), the "remove_secret" box sends null (removes it).
 */
export function webhookBody(f: FormData) {
  const secret = text(f, "secret");
  return {
    name: text(f, "name"),
    url: text(f, "url"),
    events: f.getAll("events").map(String),
    active: f.get("active") === "on",
    ...(secret ? { secret } : f.get("remove_secret") === "on" ? { secret: null } : {}),
  };
}

/** A date field (yyyy-mm-dd) as the end of that day in UTC, for expiry times. */
export const endOfDay = (date: string) => new Date(`${date}T23:59:59Z`).toISOString();

/**
 * POST /api/v1/controls/{id}/evidence as multipart: the `file` part (when one was chosen) and the
 * non-empty text fields; an expiry date becomes the end of that day.
 */
export function evidenceBody(f: FormData): FormData {
  const body = new FormData();
  for (const k of ["title", "description"] as const) if (text(f, k)) body.set(k, text(f, k));
  const expires = text(f, "expires_at");
  if (expires) body.set("expires_at", endOfDay(expires));
  const file = f.get("file");
  // A file input with nothing chosen submits an empty, unnamed File: leave the part out.
  if (file instanceof File && file.name) body.set("file", file, file.name);
  return body;
}
