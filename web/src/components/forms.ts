import { type FormEvent, useState } from "react";
import { text } from "../api/bodies.js";
import { ApiError, placeError } from "../api/errors.js";

export { text };

/**
 * Submits a form through `action` and places the API's error on the field it names
 * (errors[""] for the form itself), so every form shows validation the same way.
 */
export function useApiForm(fields: readonly string[], action: (data: FormData, form: HTMLFormElement) => Promise<void>) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    setErrors({});
    setBusy(true);
    try {
      await action(new FormData(form), form);
    } catch (err) {
      setErrors(err instanceof ApiError ? placeError(err.body, fields) : { "": String(err) });
    } finally {
      setBusy(false);
    }
  }
  return { errors, setErrors, busy, onSubmit };
}

/** The values of the named fields of a filter form, for the page's query string. */
export function formValues(e: FormEvent<HTMLFormElement>, names: readonly string[]): Record<string, string> {
  e.preventDefault();
  const f = new FormData(e.currentTarget);
  return Object.fromEntries(names.map((k) => [k, text(f, k)]));
}
