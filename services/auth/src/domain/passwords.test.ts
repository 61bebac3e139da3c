import { describe, expect, it } from "vitest";
import { argon2Hasher, checkPasswordPolicy } from "./passwords.js";

describe("password policy", () => {
  it("needs at least 12 characters (counted as characters, not bytes)", () => {
    expect(() => checkPasswordPolicy("a".repeat(11))).toThrow(/at least 12/);
    expect(() => checkPasswordPolicy("a".repeat(12))).not.toThrow();
    expect(() => checkPasswordPolicy("🔒".repeat(11))).toThrow(/at least 12/);
  });

  it("refuses absurdly long passwords with a validation error on the field", () => {
    let caught: unknown;
    try {
      checkPasswordPolicy("a".repeat(257));
    } catch (err) {
      caught = err;
    }
    expect(caught).toMatchObject({ kind: "validation", errorCode: "VALIDATION_ERROR", field: "password" });
  });
});

describe("argon2id hashing", () => {
  it("uses argon2id at OWASP's parameters with a random salt, and verifies", async () => {
    const h1 = await argon2Hasher.hash("correct horse battery");
    const h2 = await argon2Hasher.hash("correct horse battery");
    expect(h1).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(h1).not.toBe(h2);
    expect(await argon2Hasher.verify(h1, "correct horse battery")).toBe(true);
    expect(await argon2Hasher.verify(h1, "correct horse batterY")).toBe(false);
  });

  it("treats a malformed stored hash as a mismatch, not a crash", async () => {
    expect(await argon2Hasher.verify("not-a-hash", "whatever")).toBe(false);
  });
});
