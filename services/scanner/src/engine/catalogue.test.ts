import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadTemplates } from "../templates-engine/loader.js";
import { CheckCatalogueError, check, checkIds, loadCheckCatalogue, parseCheckFile } from "./catalogue.js";
import * as cloud from "./cloud/checks.js";
import * as datastores from "./datastores/checks.js";
import * as fingerprint from "./fingerprint/checks.js";
import * as ssh from "./ssh/checks.js";
import * as tls from "./tls/checks.js";
import * as web from "./web/checks.js";

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
  it("has a handle in the code for every check, and no check without one", () => {
    const handles = [cloud, datastores, fingerprint, ssh, tls, web].flatMap((m) => Object.values(m)).filter((v) => typeof v === "object" && "templateId" in v);
    const used = checkIds().filter((id) => handles.includes(check(id)));
    expect(used).toEqual(checkIds());
    expect(handles).toHaveLength(checkIds().length);
  });

  it("keeps one template id per check, except the higher-rated broken-cipher variant of the weak-cipher finding", () => {
    const ids = checkIds().map((id) => check(id).templateId);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual(["tls-weak-ciphers"]);
    const { vector: brokenVector, ...broken } = tls.BROKEN_CIPHERS;
    const { vector: weakVector, ...weak } = tls.WEAK_CIPHERS;
    expect(broken).toStrictEqual(weak);
    expect([weakVector, brokenVector]).toEqual(["CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:N/A:N", "CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:H/A:N"]);
    expect(check("tls-protocol-tls11")).toMatchObject({ title: "Deprecated protocol TLS 1.1 accepted", remediation: tls.TLS10.remediation });
    expect(check("tls-protocol-tls11").description).toBe(tls.TLS10.description.replaceAll("TLS 1.0", "TLS 1.1"));
  });

  it("reports a check that mirrors a template under the template's id, and every such id names a template", async () => {
    const templates = new Set((await loadTemplates()).map((t) => t.id));
    const borrowed = checkIds().filter((id) => check(id).templateId !== id && !checkIds().includes(check(id).templateId));
    expect(borrowed.filter((id) => !templates.has(check(id).templateId))).toEqual([]);
    expect(check("web-exposed-env").templateId).toBe("env-file-secrets");
    expect(check("datastore-redis-unauthenticated").templateId).toBe("redis-unauthenticated");
    // Checks that vary the Git entry keep their own ids.
    expect(check("web-exposed-backup").templateId).toBe("web-exposed-backup");
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

  it("names every broken file of a folder, and a handle defined in two files", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "checks-"));
    try {
      fs.writeFileSync(path.join(dir, "a.yaml"), MINIMAL);
      fs.writeFileSync(path.join(dir, "b.yaml"), MINIMAL);
      fs.writeFileSync(path.join(dir, "c.yaml"), "tool: demo\nchecks: []\n");
      fs.writeFileSync(path.join(dir, "notes.txt"), "not a catalogue file");
      expect(() => loadCheckCatalogue(dir)).toThrow(/b\.yaml: check "demo-check" is defined in another file too\n {2}c\.yaml: checks/);
      fs.rmSync(path.join(dir, "b.yaml"));
      fs.rmSync(path.join(dir, "c.yaml"));
      expect([...loadCheckCatalogue(dir).keys()]).toEqual(["demo-check", "demo-check-variant"]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
