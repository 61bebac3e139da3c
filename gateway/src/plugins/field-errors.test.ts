import { describe, expect, it } from "vitest";
import { type AjvIssue, fieldErrorsOf, labelOf, MAX_FIELD_ERRORS, wordsOf } from "./field-errors.js";

const one = (issue: AjvIssue) => fieldErrorsOf([issue])[0];

describe("fieldErrorsOf", () => {
  it("says what the issue's validator sentences meant, in plain words, naming the field", () => {
    expect(one({ instancePath: "/target", keyword: "minLength", params: { limit: 1 } })).toEqual({
      field: "target",
      detail: "Target must not be empty.",
      error_code: "VALIDATION_ERROR",
    });
    expect(one({ instancePath: "", keyword: "required", params: { missingProperty: "target" } })?.detail).toBe("Target is required.");
    expect(one({ instancePath: "/authorized", keyword: "enum", params: { allowedValues: [true] } })?.detail).toBe(
      "Confirm that you are authorized to scan this target (authorized must be true).",
    );
    expect(one({ instancePath: "/scan_type", keyword: "enum", params: { allowedValues: ["quick", "full"] } })?.detail).toBe(
      "Scan type must be one of: quick, full.",
    );
    expect(one({ instancePath: "/secret", keyword: "minLength", params: { limit: 8 } })?.detail).toBe("Secret must be at least 8 characters long.");
    expect(one({ instancePath: "/events", keyword: "minItems", params: { limit: 1 } })?.detail).toBe("Events must list at least 1 item.");
    expect(one({ instancePath: "/per_page", keyword: "maximum", params: { limit: 100 } })?.detail).toBe("Per page must be 100 or less.");
    expect(one({ instancePath: "/hour", keyword: "type", params: { type: "integer" } })?.detail).toBe("Hour must be a whole number.");
    expect(one({ instancePath: "/code", keyword: "pattern", params: { pattern: "^[0-9]{6}$" } })?.detail).toBe("Code must be 6 digits.");
    expect(one({ instancePath: "/expires_at", keyword: "format", params: { format: "date-time" } })?.detail).toBe(
      "Expires at must be a date and time, such as 2026-11-27T09:30:00Z.",
    );
    expect(one({ instancePath: "/update", keyword: "minProperties", params: { limit: 1 } })?.detail).toBe("Update must set at least one field.");
    expect(one({ instancePath: "", keyword: "additionalProperties", params: { additionalProperty: "org_id" } })).toEqual({
      field: "org_id",
      detail: "Remove org_id: it is not a field of this request.",
      error_code: "VALIDATION_ERROR",
    });
  });

  it("names items of a list by their place and nested fields by their path", () => {
    expect(one({ instancePath: "/finding_ids/3", keyword: "maxLength", params: { limit: 128 } })).toEqual({
      field: "finding_ids.3",
      detail: "Finding ids (item 4) must be at most 128 characters long.",
      error_code: "VALIDATION_ERROR",
    });
    expect(one({ instancePath: "/update/status", keyword: "enum", params: { allowedValues: ["open", "resolved"] } })?.field).toBe("update.status");
    expect(labelOf(undefined)).toBe("The request");
  });

  it("gives one error per field, in the order met, an anyOf of formats as one sentence", () => {
    const errors = fieldErrorsOf([
      { instancePath: "/target", keyword: "minLength", params: { limit: 1 } },
      { instancePath: "/target", keyword: "pattern", params: { pattern: "^x$" } },
      { instancePath: "/from_date", keyword: "format", params: { format: "date" } },
      { instancePath: "/from_date", keyword: "format", params: { format: "date-time" } },
      { instancePath: "/from_date", keyword: "anyOf", params: {} },
      { instancePath: "", keyword: "required", params: { missingProperty: "authorized" } },
    ]);
    expect(errors.map((e) => [e.field, e.detail])).toEqual([
      ["target", "Target must not be empty."],
      ["from_date", "From date must be a date, such as 2026-11-27, or a date and time, such as 2026-11-27T09:30:00Z."],
      ["authorized", "Confirm that you are authorized to scan this target (authorized must be true)."],
    ]);
  });

  it("keeps a body-level error without a field, and bounds the list", () => {
    expect(fieldErrorsOf([{ instancePath: "", keyword: "type", params: { type: "object" } }])).toEqual([
      { detail: "The request must be an object.", error_code: "VALIDATION_ERROR" },
    ]);
    const many = Array.from({ length: 200 }, (_, i) => ({ instancePath: `/finding_ids/${i}`, keyword: "minLength", params: { limit: 1 } }));
    expect(fieldErrorsOf(many)).toHaveLength(MAX_FIELD_ERRORS);
    expect(wordsOf({ keyword: "something", message: "is odd" }, "x")).toBe("X is odd.");
  });
});
