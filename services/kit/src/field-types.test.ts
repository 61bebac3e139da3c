import { describe, expect, it } from "vitest";
import { ginFieldsByCollection } from "./ferretdb-pg.js";
import type { IndexSpec } from "./index-spec.js";
import {
  declarationCheck,
  declarationComment,
  declarationName,
  FIELD_CLASSES,
  mergeFieldTypes,
  parseDeclarationComment,
  type FieldClass,
} from "./field-types.js";

const t = (f: string) => `(_jsonb->'$s'->'p'->'${f}'->>'t')`;

describe("field declarations", () => {
  it("writes the CHECK of each class exactly as the FerretDB patch expects", () => {
    const f = "created_at";
    expect(declarationCheck(f, "string")).toBe(`${t(f)} IS NULL OR ${t(f)} IN ('string','null')`);
    expect(declarationCheck(f, "date")).toBe(`${t(f)} IS NULL OR ${t(f)} IN ('date','null')`);
    expect(declarationCheck(f, "bool")).toBe(`${t(f)} IS NULL OR ${t(f)} IN ('bool','null')`);
    expect(declarationCheck(f, "objectId")).toBe(`${t(f)} IS NULL OR ${t(f)} IN ('objectId','null')`);
    expect(declarationCheck("n", "number")).toBe(
      `${t("n")} IS NULL OR ${t("n")} = 'null' OR (${t("n")} IN ('int','long','double') AND jsonb_typeof(_jsonb->'n') = 'number')`,
    );
    expect(declarationCheck("scan_ids", "string[]")).toBe(
      `${t("scan_ids")} IS NULL OR ${t("scan_ids")} IN ('string','null') OR (${t("scan_ids")} = 'array' AND NOT jsonb_path_exists(_jsonb->'$s'->'p'->'scan_ids'->'i', '$[*] ? (@.t != "string")'))`,
    );
  });

  it("quotes the field name as an SQL literal", () => {
    expect(declarationCheck("it's", "string")).toBe(`${t("it''s")} IS NULL OR ${t("it''s")} IN ('string','null')`);
  });

  it("comments `vulnscan:<class>:<field>` and reads it back", () => {
    expect(declarationComment("created_at", "date")).toBe("vulnscan:date:created_at");
    expect(declarationComment("scan_ids", "string[]")).toBe("vulnscan:string[]:scan_ids");
    for (const cls of FIELD_CLASSES) {
      expect(parseDeclarationComment(declarationComment("a:b", cls))).toEqual({ field: "a:b", fieldClass: cls });
    }
    for (const other of [null, undefined, "", "something else", "vulnscan:", "vulnscan:date:", "vulnscan:float:x"]) {
      expect(parseDeclarationComment(other), String(other)).toBeUndefined();
    }
  });

  it("names a constraint in at most 63 bytes, one name per table, field and class", () => {
    const long = "x".repeat(200);
    const names = new Set<string>();
    for (const table of ["things_1a2b3c4d", long, "ü".repeat(80)]) {
      for (const field of ["org_id", long, "ü".repeat(80), 'a b"c']) {
        for (const cls of FIELD_CLASSES) {
          const name = declarationName(table, field, cls);
          expect(Buffer.byteLength(name)).toBeLessThanOrEqual(63);
          expect(name).toMatch(/^vs_[A-Za-z0-9_]+$/);
          expect(declarationName(table, field, cls)).toBe(name);
          names.add(name);
        }
      }
    }
    expect(names.size).toBe(3 * 4 * FIELD_CLASSES.length);
    expect(declarationName(`${long}a`, "f", "string")).not.toBe(declarationName(`${long}b`, "f", "string"));
  });

  it("merges declarations, refusing one field with two classes", () => {
    expect(mergeFieldTypes({ a: { _id: "string" } }, { a: { at: "date" }, b: { n: "number" } }, { a: { _id: "string" } })).toEqual({
      a: { _id: "string", at: "date" },
      b: { n: "number" },
    });
    expect(() => mergeFieldTypes({ a: { at: "date" } }, { a: { at: "string" } })).toThrow(/a\.at declared both date and string/);
  });

  it("keeps GIN indexes only for index-key fields not declared scalar", () => {
    const specs: IndexSpec[] = [
      { collection: "c", key: { org_id: 1, scan_ids: 1, _id: -1 } },
      { collection: "c", key: { org_id: 1, status: 1, "meta.x": 1 } },
      { collection: "d", key: { at: 1 } },
    ];
    const fields: Record<string, Record<string, FieldClass>> = { c: { _id: "string", org_id: "string", scan_ids: "string[]" }, d: { at: "date" } };
    expect(Object.fromEntries(ginFieldsByCollection(specs, fields))).toEqual({ c: ["scan_ids", "status"] });
    expect(Object.fromEntries(ginFieldsByCollection(specs))).toEqual({ c: ["org_id", "scan_ids", "status"], d: ["at"] });
  });
});
