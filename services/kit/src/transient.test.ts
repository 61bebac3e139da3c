import { MongoNetworkError } from "mongodb";
import { describe, expect, it } from "vitest";
import { isTransient } from "./kafka.js";

const named = (name: string, extra: object = {}) => Object.assign(Object.defineProperty(new Error(name), "name", { value: name }), extra);

describe("isTransient", () => {
  it("retries network and server-selection errors, not others", () => {
    expect(isTransient(new MongoNetworkError("connection 4 to 127.0.0.1:1 closed"))).toBe(true);
    expect(isTransient(named("MongoServerError"))).toBe(false);
    expect(isTransient(new Error("bad"))).toBe(false);
  });

  it("sees through a bulk write that failed before reaching the server (the fault run's dead-lettered batch)", () => {
    const selection = named("MongoServerSelectionError");
    expect(isTransient(named("MongoBulkWriteError", { errorResponse: selection }))).toBe(true);
    expect(isTransient(named("MongoBulkWriteError", { cause: new MongoNetworkError("closed") }))).toBe(true);
    // A bulk write the server refused (duplicate key, validation) is not retried as transient.
    expect(isTransient(named("MongoBulkWriteError", { errorResponse: named("MongoServerError") }))).toBe(false);
  });
});
