import type { DetectionFacts } from "./types.js";

/** A detection with every field filled, for unit tests. */
export function detection(over: Partial<DetectionFacts> = {}): DetectionFacts {
  return {
    detection_id: "det-1",
    org_id: "org_a",
    scan_id: "scan_1",
    target: "app.example.test",
    template_id: "tls-weak-cipher",
    title: "Weak TLS cipher suites",
    severity: "high",
    cvss_score: 7.4,
    cvss_vector: "CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:H/A:N",
    cwe_ids: ["CWE-327"],
    cve_ids: ["CVE-2016-2183"],
    tool: "tls",
    affected_component: "nginx on 10.0.0.5:443",
    description: "The server accepts 3DES.",
    impact: "Traffic can be decrypted.",
    remediation: { summary: "Disable 3DES", steps: ["Edit ssl_ciphers"], code_example: "ssl_ciphers HIGH:!3DES;", references: ["https://sweet32.info"] },
    evidence: { request: "ClientHello", response: "ServerHello 3DES", screenshot_url: null },
    frameworks: [{ name: "pci_dss", controls: ["4.2.1"] }],
    epss_score: 0.02,
    kev: false,
    detected_at: new Date("2026-01-10T10:00:00Z"),
    ...over,
  };
}
