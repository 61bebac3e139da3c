import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it, vi } from "vitest";
import { analyze, exposureOf, priorityOf } from "./analyst.js";
import { classify } from "./classify.js";
import { contradictions } from "./consistency.js";
import { distributionFixOf, locationOf } from "./facts.js";
import { OpenAiCompatibleProvider } from "./openai.js";
import { PLAYBOOK_IDS } from "./playbooks.js";
import type { AnalysisInput } from "./provider.js";

const input = (over: Partial<AnalysisInput> = {}): AnalysisInput => ({
  finding_id: "finding_1",
  title: "Weak TLS cipher suites accepted",
  severity: "medium",
  cvss_score: 5.9,
  cvss_vector: "CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:N/A:N",
  epss_score: 0.01,
  kev: false,
  cwe_ids: ["CWE-327"],
  cve_ids: [],
  tool: "tls",
  template_id: "tls-weak-ciphers",
  target: "203.0.113.5",
  affected_component: "203.0.113.5:443",
  description: "3DES accepted",
  impact: "Traffic can be decrypted",
  remediation_summary: "Disable 3DES",
  remediation_steps: ["Edit ssl_ciphers"],
  references: [],
  evidence_request: "",
  evidence_response: "",
  ...over,
});

const redis = (over: Partial<AnalysisInput> = {}) =>
  input({
    title: "Redis reachable without authentication",
    severity: "critical",
    cvss_score: 9.8,
    cvss_vector: "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H",
    epss_score: null,
    cwe_ids: ["CWE-306"],
    tool: "templates",
    template_id: "redis-unauthenticated",
    affected_component: "tcp://203.0.113.5:6379",
    // The words that used to pull in the "outdated component" advice.
    description: "The Redis server executes commands without authentication.\n\nObserved: redis_version: 6.0.9.",
    remediation_summary: "Require authentication (ACL users or requirepass), enable protected mode and keep the port private.",
    remediation_steps: [],
    ...over,
  });

const opensshCve = (over: Partial<AnalysisInput> = {}) =>
  input({
    title: "CVE-2016-6515 in OpenSSH 7.2p2",
    severity: "high",
    cvss_score: 7.5,
    cvss_vector: "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:H",
    epss_score: 0.2,
    cwe_ids: ["CWE-20"],
    cve_ids: ["CVE-2016-6515"],
    tool: "cve-match",
    template_id: "cve:CVE-2016-6515",
    target: "10.0.0.5",
    affected_component: "OpenSSH 7.2p2 on 10.0.0.5:22",
    remediation_summary: "Upgrade to OpenSSH 7.3 or later (or a vendor package with the fix backported).",
    remediation_steps: ["Upgrade to OpenSSH 7.3 or later and restart the service."],
    evidence_response: "banner: SSH-2.0-OpenSSH_7.2p2 Ubuntu-4ubuntu2.10",
    ...over,
  });

const all = (a: ReturnType<typeof analyze>) => [a.risk_assessment, ...a.attack_scenarios, ...a.recommended_actions].join("\n");

describe("the built-in analyst", () => {
  it("is deterministic and says which path wrote it", () => {
    expect(analyze(input())).toEqual(analyze(input()));
    expect(analyze(input())).toMatchObject({ source: "builtin", source_detail: "builtin-analyst-v2", category: "weak-transport" });
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

  it("reads host, port and URL from every component format", () => {
    expect(locationOf({ affected_component: "tcp://10.0.0.5:6379", target: "t" })).toMatchObject({ host: "10.0.0.5", port: "6379", service: "Redis" });
    expect(locationOf({ affected_component: "https://app.test/.env", target: "t" })).toMatchObject({
      host: "app.test",
      port: "443",
      url: "https://app.test/.env",
      origin: "https://app.test",
      path: "/.env",
    });
    expect(locationOf({ affected_component: "OpenSSH 7.2p2 on 10.0.0.5:22", target: "t" })).toMatchObject({
      host: "10.0.0.5",
      port: "22",
      service: "OpenSSH 7.2p2",
    });
    expect(locationOf({ affected_component: "10.0.0.5:443", target: "t" })).toMatchObject({ host: "10.0.0.5", port: "443" });
    expect(locationOf({ affected_component: "", target: "app.test" })).toMatchObject({ host: "app.test", origin: "http://app.test" });
  });

  it("mentions CVSS, EPSS, KEV and CVEs in the risk assessment", () => {
    const a = analyze(opensshCve({ kev: true, epss_score: 0.123 }));
    expect(a.risk_assessment).toContain("CVSS 7.5");
    expect(a.risk_assessment).toContain("Known Exploited Vulnerabilities");
    expect(a.risk_assessment).toContain("12.3%");
    expect(a.risk_assessment).toContain("CVE-2016-6515");
    expect(a.remediation_priority).toBe("immediate");
    expect(a.attack_scenarios[0]).toContain("CISA KEV");
  });
});

describe("one category per finding, from its check", () => {
  it("classifies by template id before engine, CVE, CWE and words", () => {
    expect(classify(redis())).toMatchObject({ category: { id: "unauthenticated-service" }, by: "template" });
    expect(classify(input({ template_id: "tls-cert-brand-new", cwe_ids: [] }))).toMatchObject({ category: { id: "tls-certificate" }, by: "prefix" });
    expect(classify(input({ template_id: "cve:CVE-2016-6515" }))).toMatchObject({ category: { id: "vulnerable-version" }, by: "prefix" });
    expect(classify(input({ template_id: "x", tool: "ssh", cwe_ids: [] }))).toMatchObject({ category: { id: "ssh-configuration" }, by: "engine" });
    expect(classify(input({ template_id: "x", tool: "nuclei", cwe_ids: ["CWE-917"], cve_ids: ["CVE-2021-44228"] }))).toMatchObject({ by: "cve" });
    // A CVE outranks the engine and the prefix: Heartbleed found by a TLS check is a flaw of OpenSSL, not a TLS setting.
    expect(classify(input({ template_id: "tls-heartbleed", tool: "tls", cve_ids: ["CVE-2014-0160"] }))).toMatchObject({
      category: { id: "vulnerable-version" },
      by: "cve",
    });
    expect(classify(input({ template_id: "x", tool: "nuclei", cwe_ids: ["CWE-548"] }))).toMatchObject({ category: { id: "exposed-files" }, by: "cwe" });
    expect(classify(input({ template_id: "x", tool: "nuclei", cwe_ids: [], title: "Exposed .env file" }))).toMatchObject({
      category: { id: "exposed-files" },
      by: "words",
    });
    expect(classify(input({ template_id: "x", tool: "nuclei", cwe_ids: [], title: "Something odd" }))).toMatchObject({
      category: { id: "generic" },
      by: "none",
    });
  });

  it("answers the Redis finding with Redis steps only, never an upgrade (the reported case)", () => {
    const a = analyze(redis());
    const text = all(a);
    expect(a.category).toBe("unauthenticated-service");
    expect(text).not.toMatch(/upgrade|fixed release|version banner|public exploit/i);
    expect(text).toContain("In `/etc/redis/redis.conf`, set `requirepass <a long random secret>`");
    expect(text).toContain("Verify by hand: `redis-cli -h 203.0.113.5 -p 6379 PING` should show `NOAUTH Authentication required.`");
    expect(a.attack_scenarios[0]).toBe("Anyone on the internet connects to Redis on port 6379 and reads or changes its data without any credentials");
    expect(a).toMatchObject({ automation_available: true, ansible_playbook_id: "redis-hardening" });
    expect(contradictions(redis(), "misconfiguration", a)).toEqual([]);
  });

  it("speaks of an internal attacker for a private address, of anyone for a public one", () => {
    expect(analyze(redis({ target: "10.0.0.5", affected_component: "tcp://10.0.0.5:6379" })).attack_scenarios[0]).toMatch(/^An attacker with a foothold/);
    expect(all(analyze(redis({ target: "10.0.0.5", affected_component: "tcp://10.0.0.5:6379" })))).not.toContain("Until it is fixed");
    expect(all(analyze(redis()))).toContain("Until it is fixed, allow only the hosts that need Redis to reach `203.0.113.5:6379`");
  });

  it("answers a version match with the fix, the advisories and the check of the installed package, never authentication", () => {
    const a = analyze(opensshCve());
    const text = all(a);
    expect(a.category).toBe("vulnerable-version");
    expect(text).not.toMatch(/require authentication|requirepass/i);
    expect(text).toContain("Fixed upstream in OpenSSH 7.3 or later");
    expect(text).toContain("<https://www.openssh.com/security.html>");
    expect(text).toContain("<https://ubuntu.com/security/CVE-2016-6515>");
    expect(text).toContain("Check the installed version: `ssh -V`");
    expect(a.ansible_playbook_id).toBe("upgrade-openssh");
  });

  it("answers a version match the scanner rated info as a note: no upgrade, no exploit, low priority", () => {
    const note = opensshCve({
      title: "CVE-2023-38408 (client-side) cannot be judged from OpenSSH server banner",
      severity: "info",
      cvss_score: 0,
      epss_score: 0.41,
      template_id: "cve:CVE-2023-38408",
      cve_ids: ["CVE-2023-38408"],
      remediation_summary: "Nothing to do for CVE-2023-38408 on this service; keep the distribution's security updates applied.",
      remediation_steps: [],
    });
    const a = analyze(note);
    expect(a).toMatchObject({ remediation_priority: "low", category: "vulnerable-version", automation_available: false, ansible_playbook_id: "" });
    expect(all(a)).not.toMatch(/public exploit|Upgrade:|Until it is fixed|Verify by hand/);
    expect(all(a)).toContain("Nothing to do for CVE-2023-38408 on this service");
    expect(all(a)).toContain("Advisory: <https://www.openssh.com/security.html>");
  });

  it("says what the scanner's confidence means", () => {
    expect(analyze(opensshCve({ confidence: "version_match_unverified_backport" })).risk_assessment).toContain(
      "could not be resolved against its fixed version",
    );
    expect(analyze(opensshCve({ confidence: "version_match" })).risk_assessment).toContain(
      "It was matched by the version the service announces (confidence `version_match`), not by exploiting it.",
    );
  });

  it("names the service from the check when it listens on another port", () => {
    expect(analyze(redis({ affected_component: "tcp://203.0.113.5:44671" })).attack_scenarios[0]).toContain("connects to Redis on port 44671");
  });

  it("names the distribution's fixed version when the scanner states it", () => {
    const said = { description: "", remediation_summary: "", remediation_steps: [], evidence_response: "" };
    expect(distributionFixOf({ ...said, description: "Debian 12 (bookworm): fixed in 1:9.2p1-2+deb12u3." })).toEqual({
      distribution: "Debian",
      version: "1:9.2p1-2+deb12u3",
    });
    expect(distributionFixOf({ ...said, remediation_steps: ["Install the package fixed in 1:8.9p1-3ubuntu0.10 (Ubuntu 22.04)"] })).toEqual({
      distribution: "Ubuntu",
      version: "1:8.9p1-3ubuntu0.10",
    });
    // As the scanner's distribution check words it (description and evidence).
    expect(
      distributionFixOf({
        ...said,
        description:
          "The service runs the Debian 12 package 1:9.2p1-2+deb12u1; Debian 12 fixed it in 1:9.2p1-2+deb12u3 (OSV). The distribution revision confirms it.",
      }),
    ).toEqual({ distribution: "Debian", version: "1:9.2p1-2+deb12u3" });
    expect(distributionFixOf({ ...said, evidence_response: "OSV: Debian:12 openssh fixed in 1:9.2p1-2+deb12u3; running 1:9.2p1-2+deb12u1" })).toEqual({
      distribution: "Debian",
      version: "1:9.2p1-2+deb12u3",
    });
    const a = analyze(
      opensshCve({ description: "Debian 12: fixed in 1:9.2p1-2+deb12u3.", evidence_response: "banner: SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u1" }),
    );
    expect(all(a)).toContain("Upgrade the package to the Debian release that fixes CVE-2016-6515: `1:9.2p1-2+deb12u3` or later");
    expect(all(a)).toContain("<https://security-tracker.debian.org/tracker/CVE-2016-6515>");
  });

  it("refers only to playbooks that exist in ansible/playbooks/", () => {
    for (const id of PLAYBOOK_IDS) {
      const file = fileURLToPath(new URL(`../../../../ansible/playbooks/${id}.yml`, import.meta.url));
      expect(existsSync(file), file).toBe(true);
    }
  });
});

describe("the consistency check", () => {
  it("finds the statements that contradict the finding", () => {
    const say = (...actions: string[]) => ({ risk_assessment: "Bad.", attack_scenarios: ["x"], recommended_actions: actions });
    expect(contradictions(redis(), "misconfiguration", say("Upgrade the component to a fixed release from a trusted source"))).toHaveLength(1);
    expect(contradictions(redis(), "misconfiguration", say("Hide version banners once patched"))).toHaveLength(1);
    expect(contradictions(opensshCve(), "vulnerability", say("Require authentication and bind the service to trusted networks only"))).toHaveLength(1);
    expect(contradictions(redis(), "misconfiguration", say("It is actively exploited"))).toHaveLength(1);
    expect(contradictions(redis(), "misconfiguration", say("It is not listed in CISA's KEV catalogue"))).toEqual([]);
    expect(contradictions(opensshCve(), "vulnerability", say("Also fix CVE-2024-6387"))).toEqual([expect.stringContaining("names CVE-2024-6387")]);
    expect(contradictions(opensshCve(), "vulnerability", say("The server is reachable from the internet"))).toHaveLength(1);
    expect(contradictions(redis(), "misconfiguration", say("Set requirepass"))).toEqual([]);
  });
});

function modelAnswering(content: string) {
  const fetchMock = vi.fn(async (_url: string | URL | Request, _init?: RequestInit) => Response.json({ choices: [{ message: { content } }] }));
  const provider = new OpenAiCompatibleProvider({
    url: "https://ai.example.test/v1/",
    apiKey: "k",
    model: "m",
    timeoutMs: 1000,
    fetch: fetchMock as typeof fetch,
  });
  return { provider, fetchMock };
}

const answer = (over: Record<string, unknown> = {}) =>
  JSON.stringify({
    risk_assessment: "Redis answers anyone who connects.",
    attack_scenarios: ["An attacker writes an SSH key through CONFIG SET"],
    remediation_priority: "low",
    recommended_actions: ["Set `requirepass` in `/etc/redis/redis.conf`"],
    ansible_playbook_id: "rm-rf-everything",
    ...over,
  });

describe("the OpenAI-compatible provider", () => {
  it("grounds the prompt on the facts and the built-in analysis and keeps priority, category and playbook to the rules", async () => {
    const { provider, fetchMock } = modelAnswering(answer());
    const a = await provider.analyze(redis());
    expect(a).toEqual({
      risk_assessment: "Redis answers anyone who connects.",
      attack_scenarios: ["An attacker writes an SSH key through CONFIG SET"],
      remediation_priority: "immediate",
      recommended_actions: ["Set `requirepass` in `/etc/redis/redis.conf`"],
      automation_available: true,
      ansible_playbook_id: "redis-hardening",
      category: "unauthenticated-service",
      source: "model",
      source_detail: "openai-compatible:m",
    });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe("https://ai.example.test/v1/chat/completions");
    expect((init!.headers as Record<string, string>).authorization).toBe("Bearer k");
    const user = JSON.parse(JSON.parse(String(init!.body)).messages[1].content);
    expect(user).toMatchObject({ kind: "misconfiguration", exposure: "internet", finding: { template_id: "redis-unauthenticated" } });
    expect(user.builtin_analysis.recommended_actions).toEqual(analyze(redis()).recommended_actions);
    expect(provider.id).toBe("openai-compatible:m");
  });

  it("refuses an answer that contradicts the finding and returns the built-in analysis, saying why", async () => {
    const { provider } = modelAnswering(answer({ recommended_actions: ["Upgrade the component to a fixed release from a trusted source"] }));
    const a = await provider.analyze(redis());
    expect(a).toEqual({
      ...analyze(redis()),
      source: "builtin_fallback",
      source_detail: expect.stringContaining("recommends a software upgrade for a configuration problem"),
    });
  });

  it("refuses an answer that is not the expected JSON", async () => {
    const { provider } = modelAnswering("sure! here you go");
    expect(await provider.analyze(redis())).toMatchObject({ source: "builtin_fallback", source_detail: expect.stringContaining("not the expected JSON") });
    const { provider: empty } = modelAnswering(answer({ recommended_actions: [] }));
    expect(await empty.analyze(redis())).toMatchObject({ source: "builtin_fallback" });
  });

  it("fails when the endpoint does", async () => {
    const down = vi.fn(async () => new Response("no", { status: 503 }));
    const p = new OpenAiCompatibleProvider({
      url: "https://ai.example.test/v1",
      apiKey: "k",
      model: "m",
      timeoutMs: 1000,
      fetch: down as unknown as typeof fetch,
    });
    await expect(p.analyze(redis())).rejects.toThrow("503");
  });
});
