import { randomBytes } from "node:crypto";

/** Unique names per test, so tests sharing one broker and one database server never collide. */
export const unique = (prefix: string) => `${prefix}_${Date.now().toString(36)}${randomBytes(3).toString("hex")}`;
