import { create } from "@bufbuild/protobuf";
import { RetestResultSchema } from "@vulnscan/proto/vulnscan/findings/v1/retest_pb.js";
import { describe, expect, it } from "vitest";
import { resultOf } from "./retest-results-consumer.js";

describe("resultOf", () => {
  it("makes NULs of a binary file's evidence visible (the database refuses a NUL in a string)", () => {
    const m = create(RetestResultSchema, {
      retestId: "retest_1",
      orgId: "org_a",
      verdict: "still_vulnerable",
      detail: "macOS .DS_Store file exposed",
      evidence: { request: "GET /.DS_Store HTTP/1.1", response: "HTTP/1.1 200 OK\r\n\r\n\u0000\u0000\u0000\u0001Bud1\u0000" },
    });
    const r = resultOf(m);
    expect(r.evidence.response).toBe("HTTP/1.1 200 OK\r\n\r\n\\x00\\x00\\x00\u0001Bud1\\x00");
    expect(r.evidence.response).not.toContain("\u0000");
    expect(r.verdict).toBe("still_vulnerable");
  });

  it("counts a verdict the scanner could not have meant as inconclusive", () => {
    const r = resultOf(create(RetestResultSchema, { retestId: "retest_1", orgId: "org_a", verdict: "maybe" }));
    expect(r).toMatchObject({ verdict: "inconclusive", reason: "unreachable" });
  });
});
