import { describe, expect, it } from "vitest";
import { errorBodyOf, fieldOf, placeError } from "./errors.js";

const fields = ["target", "scan_type", "frameworks", "ports", "authorized"] as const;

describe("API errors on form fields", () => {
  it("puts a validation error on the field the API names", () => {
    expect(fieldOf({ detail: "bad", error_code: "VALIDATION_ERROR", field: "target" }, fields)).toBe("target");
    expect(fieldOf({ detail: "bad", error_code: "VALIDATION_ERROR", field: "body.ports" }, fields)).toBe("ports");
    expect(fieldOf({ detail: "bad", error_code: "VALIDATION_ERROR", field: "frameworks/0" }, fields)).toBe("frameworks");
    expect(fieldOf({ detail: "bad", error_code: "VALIDATION_ERROR", field: "frameworks[1]" }, fields)).toBe("frameworks");
  });
  it("keeps errors of unknown or absent fields at form level", () => {
    expect(fieldOf({ detail: "quota", error_code: "QUOTA_EXCEEDED" }, fields)).toBeNull();
    expect(placeError({ detail: "x", error_code: "VALIDATION_ERROR", field: "unknown" }, fields)).toEqual({ "": "x" });
    expect(placeError({ detail: "need it", error_code: "VALIDATION_ERROR", field: "authorized" }, fields)).toEqual({ authorized: "Tick this box to confirm." });
  });
  it("says the validator's sentences in plain words, without the field's API name", () => {
    const v = (detail: string, field: string) => placeError({ detail, error_code: "VALIDATION_ERROR", field }, [...fields, "expires_at", "events", "secret"]);
    expect(v("target must NOT have fewer than 1 characters", "target")).toEqual({ target: "Required." });
    expect(v("Field required: target", "target")).toEqual({ target: "Required." });
    expect(v("authorized must be one of: true", "authorized")).toEqual({ authorized: "Tick this box to confirm." });
    expect(v("scan_type must be one of: quick, full, compliance", "scan_type")).toEqual({ scan_type: "Choose one of: quick, full, compliance." });
    expect(v("secret must NOT have fewer than 8 characters", "secret")).toEqual({ secret: "Use at least 8 characters." });
    expect(v("events must NOT have fewer than 1 items", "events")).toEqual({ events: "Choose at least one." });
    expect(v("expires_at must be in the future", "expires_at")).toEqual({ expires_at: "Must be in the future." });
    expect(v("frameworks/0 must be one of: soc2, iso27001", "frameworks/0")).toEqual({ frameworks: "Choose one of: soc2, iso27001." });
    // A field the form does not show keeps its name, in words; other errors keep the API's text.
    expect(v("per_page must be <= 100", "per_page")).toEqual({ "": "Per page: Enter 100 or less." });
    expect(placeError({ detail: "Scan quota exceeded", error_code: "QUOTA_EXCEEDED" }, fields)).toEqual({ "": "Scan quota exceeded" });
  });
  it("puts every error of the API's list on its field at once, and keeps working with a single error", () => {
    const body = errorBodyOf(422, {
      detail: "Target must not be empty.",
      error_code: "VALIDATION_ERROR",
      field: "target",
      errors: [
        { field: "target", detail: "Target must not be empty.", error_code: "VALIDATION_ERROR" },
        { field: "authorized", detail: "Confirm that you are authorized to scan this target (authorized must be true).", error_code: "VALIDATION_ERROR" },
        { field: "ports", detail: "Ports is not in the expected form.", error_code: "VALIDATION_ERROR" },
        { field: "org_id", detail: "Remove org_id: it is not a field of this request.", error_code: "VALIDATION_ERROR" },
      ],
    });
    expect(placeError(body, fields)).toEqual({
      target: "Target must not be empty.",
      authorized: "Tick this box to confirm.",
      ports: "Ports is not in the expected form.",
      "": "Remove org_id: it is not a field of this request.",
    });
    // Without a list (another error, an older gateway): the one error, as before.
    expect(placeError({ detail: "Target must not be empty.", error_code: "VALIDATION_ERROR", field: "target" }, fields)).toEqual({
      target: "Target must not be empty.",
    });
    // Two errors on one field read as one message.
    expect(
      placeError(
        {
          detail: "a",
          error_code: "VALIDATION_ERROR",
          errors: [
            { field: "ports", detail: "Ports must not be empty.", error_code: "VALIDATION_ERROR" },
            { field: "ports", detail: "Ports is not in the expected form.", error_code: "VALIDATION_ERROR" },
          ],
        },
        fields,
      ),
    ).toEqual({ ports: "Ports must not be empty. Ports is not in the expected form." });
  });
  it("makes an error body of anything", () => {
    expect(errorBodyOf(502, "<html>")).toEqual({ detail: "The server answered 502", error_code: "HTTP_502" });
    expect(errorBodyOf(422, { detail: "d", error_code: "VALIDATION_ERROR", field: "f" })).toEqual({ detail: "d", error_code: "VALIDATION_ERROR", field: "f" });
  });
});
