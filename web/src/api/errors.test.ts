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
    expect(placeError({ detail: "need it", error_code: "VALIDATION_ERROR", field: "authorized" }, fields)).toEqual({ authorized: "need it" });
  });
  it("makes an error body of anything", () => {
    expect(errorBodyOf(502, "<html>")).toEqual({ detail: "The server answered 502", error_code: "HTTP_502" });
    expect(errorBodyOf(422, { detail: "d", error_code: "VALIDATION_ERROR", field: "f" })).toEqual({ detail: "d", error_code: "VALIDATION_ERROR", field: "f" });
  });
});
