import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it, vi } from "vitest";
import { analyze, exposureOf, priorityOf } from "./analyst.js";
import { OpenAiCompatibleProvider } from "./openai.js";
import { PLAYBOOK_IDS } from "./playbooks.js";
import type { AnalysisInput } from "./provider.js";

const input = (over: Partial<AnalysisInput> = {}): AnalysisInput => ({
  finding_id: "finding_1",
  title: "Weak TLS cipher suites",
  severity: "medium",
  cvss_score: 5.9,
  cvss_vector: "CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:N/A:N",
  epss_score: 0.01,
  kev: false,
  cwe_ids: ["CWE-327"],
  cve_ids: [],
  tool: "tls",
  template_id: "tls-weak-cipher",
  target: "app.example.test",
  affected_component: "nginx on 203.0.113.5:443",
  description: "3DES accepted",
  remediation_summary: "Disable 3DES",
  remediation_steps: ["Edit ssl_ciphers"],
  ...over,
});

describe("the built-in analyst", () => {
  it("is deterministic", () => {
    expect(analyze(input())).toEqual(analyze(input()));
  });

  it("prioritises KEV, high EPSS and critical network-reachable issues as immediate", () => {
    expect(priorityOf(input({ kev: true, cvss_score: 5 }))).toBe("immediate");
    expect(priorityOf(input({ epss_score: 0.6, cvss_score: 5 }))).toBe("immediate");
    expect(priorityOf(input({ cvss_score: 9.8, severity: "critical" }))).toBe("immediate");
    expect(priorityOf(input({ cvss_score: 9.8, severity: "critical", cvss_vector: "CVSS:3.1/AV:L/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H" }))).toBe("high");
    expect(priorityOf(input({ cvss_score: 7.5 }))).toBe("high");
    expect(priorityOf(input({ cvss_score: 2, epss_score: 0.2 }))).toBe("high");
    expect(priorityOf(input())).toBe("medium");
    expect(priorityOf(input({ cvss_score: 0, severity: "info", epss_score: null }))).toBe("low");
  });

  it("derives exposure from the attack vector and the target address", () => {
    expect(exposureOf({ cvss_vector: "CVSS:3.1/AV:N", target: "203.0.113.5" })).toBe("internet");
    expect(exposureOf({ cvss_vector: "CVSS:3.1/AV:N", target: "10.1.2.3" })).toBe("internal");
    expect(exposureOf({ cvss_vector: "CVSS:3.1/AV:A", target: "x" })).toBe("adjacent");
    expect(exposureOf({ cvss_vector: "", target: "192.168.0.0/24" })).toBe("internal");
  });

  it("mentions CVSS, EPSS, KEV and CVEs in the risk assessment and offers the TLS playbook", () => {
    const a = analyze(input({ kev: true, cve_ids: ["CVE-2016-2183"], epss_score: 0.123 }));
    expect(a.risk_assessment).toContain("CVSS 5.9");
    expect(a.risk_assessment).toContain("Known Exploited Vulnerabilities");
    expect(a.risk_assessment).toContain("12.3%");
    expect(a.risk_assessment).toContain("CVE-2016-2183");
    expect(a).toMatchObject({ remediation_priority: "immediate", automation_available: true, ansible_playbook_id: "tls-hardening" });
    expect(a.attack_scenarios.length).toBeGreaterThan(0);
    expect(a.recommended_actions).toContain("Disable 3DES");
    expect(a.recommended_actions.some((x) => x.includes("tls-hardening"))).toBe(true);
  });

  it("picks the playbook of the common fixes", () => {
    const pick = (over: Partial<AnalysisInput>) =>
      analyze(input({ cwe_ids: [], title: "", template_id: "", description: "", affected_component: "", ...over })).ansible_playbook_id;
    expect(pick({ title: "Missing X-Frame-Options header", cwe_ids: ["CWE-1021"] })).toBe("security-headers");
    expect(pick({ title: "Directory listing enabled", cwe_ids: ["CWE-548"] })).toBe("disable-directory-listing");
    expect(pick({ title: "Exposed Git repository", template_id: "exposed-git-config", affected_component: "https://x/.git/config" })).toBe(
      "remove-exposed-files",
    );
    expect(pick({ title: "Exposed .env file" })).toBe("remove-exposed-files");
    expect(pick({ title: "Redis without authentication", template_id: "redis-unauth" })).toBe("redis-hardening");
    expect(pick({ title: "Outdated OpenSSH 7.2", affected_component: "OpenSSH 7.2p2 on 10.0.0.5:22" })).toBe("upgrade-openssh");
    expect(pick({ title: "vsftpd 2.3.4 backdoor", cve_ids: ["CVE-2011-2523"] })).toBe("upgrade-vsftpd");
    const none = analyze(input({ cwe_ids: ["CWE-89"], title: "SQL injection", template_id: "sqli", description: "", affected_component: "/search" }));
    expect(none).toMatchObject({ automation_available: false, ansible_playbook_id: "" });
  });

  it("refers only to playbooks that exist in ansible/playbooks/", () => {
    for (const id of PLAYBOOK_IDS) {
      const file = fileURLToPath(new URL(`../../../../ansible/playbooks/${id}.yml`, import.meta.url));
      expect(existsSync(file), file).toBe(true);
    }
  });
});

describe("the OpenAI-compatible provider", () => {
  it("posts the finding, validates the answer and keeps the playbook choice to the rules", async () => {
    const fetchMock = vi.fn(async (_url: string | URL | Request, _init?: RequestInit) =>
      Response.json({
        choices: [
          {
            message: {
              content: JSON.stringify({
                risk_assessment: "Model says bad",
                attack_scenarios: ["MITM"],
                remediation_priority: "high",
                recommended_actions: ["Fix ciphers"],
                ansible_playbook_id: "rm-rf-everything",
              }),
            },
          },
        ],
      }),
    );
    const p = new OpenAiCompatibleProvider({ url: "https://ai.example.test/v1/", apiKey: "k", model: "m", timeoutMs: 1000, fetch: fetchMock as typeof fetch });
    const a = await p.analyze(input());
    expect(a).toEqual({
      risk_assessment: "Model says bad",
      attack_scenarios: ["MITM"],
      remediation_priority: "high",
      recommended_actions: ["Fix ciphers"],
      automation_available: true,
      ansible_playbook_id: "tls-hardening",
    });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe("https://ai.example.test/v1/chat/completions");
    expect((init!.headers as Record<string, string>).authorization).toBe("Bearer k");
    expect(p.id).toBe("openai-compatible:m");
  });

  it("fails on an answer that is not the expected JSON", async () => {
    const bad = vi.fn(async () => Response.json({ choices: [{ message: { content: "sure! here you go" } }] }));
    const p = new OpenAiCompatibleProvider({
      url: "https://ai.example.test/v1",
      apiKey: "k",
      model: "m",
      timeoutMs: 1000,
      fetch: bad as unknown as typeof fetch,
    });
    await expect(p.analyze(input())).rejects.toThrow();
  });
});

describe("playbooks for the scanner's own checks", () => {
  it("maps the catalogue's template ids and titles to the right fix", () => {
    const pick = (template_id: string, title: string, cwe_ids: string[]) =>
      analyze(input({ template_id, title, cwe_ids, description: "", affected_component: "https://app.test/" })).ansible_playbook_id;
    expect(pick("web-missing-csp", "No Content-Security-Policy", ["CWE-693", "CWE-1021"])).toBe("security-headers");
    expect(pick("web-missing-clickjacking-protection", "No clickjacking protection", ["CWE-1021"])).toBe("security-headers");
    expect(pick("web-missing-x-content-type-options", "No X-Content-Type-Options", ["CWE-693"])).toBe("security-headers");
    expect(pick("web-missing-hsts", "No Strict-Transport-Security", ["CWE-319"])).toBe("tls-hardening");
    expect(pick("web-missing-https-redirect", "Plain HTTP served without redirect to HTTPS", ["CWE-319"])).toBe("tls-hardening");
    expect(pick("tls-weak-ciphers", "Weak TLS ciphers", ["CWE-327"])).toBe("tls-hardening");
    expect(pick("web-trace-enabled", "HTTP TRACE method enabled", ["CWE-693", "CWE-200"])).toBe("disable-http-methods");
    expect(pick("web-directory-listing", "Directory listing", ["CWE-548"])).toBe("disable-directory-listing");
    expect(pick("git-repository-exposure", "Git repository exposed", ["CWE-527"])).toBe("remove-exposed-files");
    expect(pick("env-file-secrets", "Environment file with secrets", ["CWE-538"])).toBe("remove-exposed-files");
    expect(pick("datastore-redis-unauthenticated", "Redis without authentication", ["CWE-306"])).toBe("redis-hardening");
    expect(pick("openssh-user-enumeration", "OpenSSH user enumeration", [])).toBe("upgrade-openssh");
    expect(pick("vsftpd-234-backdoor", "vsftpd 2.3.4 backdoor", [])).toBe("upgrade-vsftpd");
    expect(pick("ftp-anonymous-login", "Anonymous FTP login", [])).toBe("upgrade-vsftpd");
  });
});
