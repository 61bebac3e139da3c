import { describe, expect, it } from "vitest";
import { CheckCatalogueError, check, checkIds, parseCheckFile } from "./catalogue.js";
import before from "./catalogue.fixture.json" with { type: "json" };

const MINIMAL = `
tool: demo
shared:
  vector: &v CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N
checks:
  demo-check: &base
    title: Demo check
    cvss_vector: *v
    cwe: [CWE-200]
    description: Something is readable.
    impact: Someone can read it.
    remediation:
      summary: Stop it.
      steps: [Stop serving it.]
      code_example: deny all;
      references: [https://example.com/doc]
  demo-check-variant:
    <<: *base
    template_id: demo-check
    cvss_vector: CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N
`;

describe("check catalogue", () => {
  it("yields exactly the checks the code defined before they moved to YAML", () => {
    expect(checkIds().sort()).toEqual(Object.keys(before).sort());
    for (const [id, def] of Object.entries(before)) expect(check(id), id).toStrictEqual(def);
  });

  it("fails loudly for an unknown handle", () => {
    expect(() => check("web-no-such-check")).toThrow(CheckCatalogueError);
  });

  it("maps the template field names, the file's tool, and merge-key variants", () => {
    const checks = parseCheckFile(MINIMAL, "demo.yaml");
    expect(checks.get("demo-check")).toStrictEqual({
      templateId: "demo-check",
      title: "Demo check",
      vector: "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N",
      cweIds: ["CWE-200"],
      tool: "demo",
      description: "Something is readable.",
      impact: "Someone can read it.",
      remediation: { summary: "Stop it.", steps: ["Stop serving it."], codeExample: "deny all;", references: ["https://example.com/doc"] },
    });
    const variant = checks.get("demo-check-variant");
    expect(variant?.templateId).toBe("demo-check");
    expect(variant?.vector).toBe("CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N");
    expect(variant?.remediation).toEqual(checks.get("demo-check")?.remediation);
  });

  it("rejects a broken entry with the file and field named", () => {
    const bad = MINIMAL.replace("cwe: [CWE-200]", "cwe: [200]").replace("cvss_vector: *v", "cvss_vector: CVSS:3.1/AV:Q");
    expect(() => parseCheckFile(bad, "demo.yaml")).toThrow(/demo\.yaml: .*checks\.demo-check\.cvss_vector.*checks\.demo-check\.cwe\.0/);
    expect(() => parseCheckFile(MINIMAL.replace("title: Demo check", "titel: Demo check"), "demo.yaml")).toThrow(/demo\.yaml: .*titel/);
    expect(() => parseCheckFile("tool: [", "demo.yaml")).toThrow(/demo\.yaml: not valid YAML/);
  });
});
