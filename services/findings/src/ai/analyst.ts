import { isIP } from "node:net";
import { playbookFor } from "./playbooks.js";
import type { AiAnalysis, AiProvider, AnalysisInput } from "./provider.js";

/*
 * The built-in analyst: deterministic rules over the facts a finding carries (CWE, CVE, CVSS
 * base score and vector, EPSS, CISA KEV, exposure, component). Same input, same output; no
 * network. Its priority rule, most urgent first:
 *   immediate  listed in KEV, or EPSS ≥ 0.5, or CVSS ≥ 9 reachable from the network
 *   high       CVSS ≥ 7, or EPSS ≥ 0.1, or critical/high severity
 *   medium     CVSS ≥ 4, or medium severity
 *   low        everything else
 */

interface Category {
  name: string;
  cwes: string[];
  words: string[];
  scenarios: string[];
  actions: string[];
}

const CATEGORIES: Category[] = [
  {
    name: "injection",
    cwes: ["CWE-89", "CWE-78", "CWE-77", "CWE-94", "CWE-917", "CWE-74"],
    words: ["sql injection", "sqli", "command injection", "rce", "remote code", "code injection", "log4"],
    scenarios: [
      "An unauthenticated attacker sends crafted input that is executed by the backend, reading or modifying data",
      "Code execution on the host is used to install a web shell and move laterally inside the network",
    ],
    actions: ["Use parameterised queries or safe APIs instead of building commands from input", "Validate and encode input at the boundary"],
  },
  {
    name: "cross-site scripting",
    cwes: ["CWE-79", "CWE-80"],
    words: ["xss", "cross-site scripting"],
    scenarios: [
      "A victim opens a crafted link and the injected script steals their session or acts on their behalf",
      "Stored script runs for every visitor of the affected page, spreading the compromise",
    ],
    actions: ["Encode output for its context and enable a strict Content-Security-Policy"],
  },
  {
    name: "path traversal or file inclusion",
    cwes: ["CWE-22", "CWE-23", "CWE-98"],
    words: ["traversal", "lfi", "file inclusion"],
    scenarios: ["An attacker reads files outside the web root, such as configuration with credentials"],
    actions: ["Resolve paths against an allow-list of files and reject '..' segments"],
  },
  {
    name: "missing authentication",
    cwes: ["CWE-306", "CWE-287", "CWE-284", "CWE-285", "CWE-862", "CWE-1188"],
    words: ["unauthenticated", "no auth", "without authentication", "anonymous", "default credentials", "open redis", "redis"],
    scenarios: [
      "Anyone who can reach the service reads or changes its data without credentials",
      "The service is abused to write files or keys that give the attacker a foothold on the host",
    ],
    actions: ["Require authentication and bind the service to trusted networks only", "Rotate any data or keys the service exposed"],
  },
  {
    name: "sensitive information exposure",
    cwes: ["CWE-200", "CWE-538", "CWE-527", "CWE-548", "CWE-532", "CWE-215"],
    words: [".git", ".env", "directory listing", "exposed", "disclosure", "backup"],
    scenarios: [
      "An attacker downloads exposed source, configuration or secrets and uses them to attack other systems",
      "Listed files reveal internal structure that makes other attacks easier",
    ],
    actions: ["Remove the exposed files and deny them in the web server", "Rotate every secret the exposed files contained"],
  },
  {
    name: "weak transport security",
    cwes: ["CWE-326", "CWE-327", "CWE-319", "CWE-295", "CWE-757"],
    words: ["tls", "ssl", "cipher", "certificate", "hsts", "cleartext"],
    scenarios: [
      "An attacker on the network path downgrades or intercepts the connection and reads or alters traffic",
      "Credentials sent over the weak channel are captured and replayed",
    ],
    actions: ["Allow only TLS 1.2 and 1.3 with forward-secret AEAD ciphers", "Enable HSTS once HTTPS is enforced everywhere"],
  },
  {
    name: "missing browser protections",
    cwes: ["CWE-693", "CWE-1021", "CWE-16"],
    words: ["header", "clickjacking", "x-frame-options", "content-security-policy"],
    scenarios: [
      "The site is framed by a malicious page to trick users into clicking (clickjacking)",
      "Without a content security policy, any injected script runs unhindered",
    ],
    actions: ["Send the standard security headers on every response"],
  },
  {
    name: "outdated or vulnerable component",
    cwes: ["CWE-1104", "CWE-1035", "CWE-937"],
    words: ["outdated", "version", "openssh", "vsftpd", "apache", "nginx", "backdoor", "end of life", "eol"],
    scenarios: [
      "A public exploit for the known vulnerability of this version is run against the exposed service",
      "Automated scanners find the version banner and add the host to mass-exploitation campaigns",
    ],
    actions: ["Upgrade the component to a fixed release from a trusted source", "Hide version banners once patched"],
  },
];

const GENERIC: Category = {
  name: "security weakness",
  cwes: [],
  words: [],
  scenarios: ["An attacker who can reach the affected component uses the weakness as one step of a broader attack"],
  actions: ["Apply the vendor's fix or configuration guidance for this issue"],
};

/** Exposure from the CVSS attack vector and the target's address. */
export function exposureOf(input: Pick<AnalysisInput, "cvss_vector" | "target">): "internet" | "internal" | "adjacent" | "local" {
  const av = /AV:([NALP])/.exec(input.cvss_vector)?.[1];
  if (av === "L" || av === "P") return "local";
  if (av === "A") return "adjacent";
  const host = input.target.replace(/\/\d+$/, "");
  const v = isIP(host);
  if (v === 4 && /^(10\.|127\.|192\.168\.|169\.254\.|172\.(1[6-9]|2\d|3[01])\.)/.test(host)) return "internal";
  if (v === 6 && /^(::1$|fc|fd|fe80)/i.test(host)) return "internal";
  return "internet";
}

export function priorityOf(input: AnalysisInput): AiAnalysis["remediation_priority"] {
  const exposure = exposureOf(input);
  const epss = input.epss_score ?? 0;
  if (input.kev || epss >= 0.5 || (input.cvss_score >= 9 && (exposure === "internet" || exposure === "internal"))) return "immediate";
  if (input.cvss_score >= 7 || epss >= 0.1 || input.severity === "critical" || input.severity === "high") return "high";
  if (input.cvss_score >= 4 || input.severity === "medium") return "medium";
  return "low";
}

function categoriesOf(input: AnalysisInput, text: string): Category[] {
  const cwes = new Set(input.cwe_ids.map((c) => c.toUpperCase()));
  const found = CATEGORIES.filter((c) => c.cwes.some((w) => cwes.has(w)) || c.words.some((w) => text.includes(w)));
  return found.length ? found.slice(0, 2) : [GENERIC];
}

const pct = (x: number) => `${Math.round(x * 1000) / 10}%`;

export function analyze(input: AnalysisInput): AiAnalysis {
  const text = `${input.title} ${input.template_id} ${input.affected_component} ${input.description}`.toLowerCase();
  const cwes = new Set(input.cwe_ids.map((c) => c.toUpperCase()));
  const exposure = exposureOf(input);
  const priority = priorityOf(input);
  const cats = categoriesOf(input, text);
  const playbook = playbookFor({ text, cwes });

  const facts: string[] = [
    `${input.severity[0]?.toUpperCase() ?? ""}${input.severity.slice(1)} severity ${cats[0]!.name} (CVSS ${input.cvss_score.toFixed(1)}) in ${input.affected_component || input.target}.`,
  ];
  facts.push(
    exposure === "internet"
      ? "The component is reachable from the internet, so any attacker can try it."
      : exposure === "internal"
        ? "The component is on an internal address; an attacker needs a foothold in the network first."
        : exposure === "adjacent"
          ? "Exploitation needs access to the same network segment."
          : "Exploitation needs local access to the host.",
  );
  if (input.kev) facts.push("It is listed in CISA's Known Exploited Vulnerabilities catalogue: it is being exploited in the wild.");
  if (input.epss_score !== null) {
    facts.push(`EPSS estimates a ${pct(input.epss_score)} probability of exploitation in the next 30 days.`);
  }
  if (input.cve_ids.length) facts.push(`Tracked as ${input.cve_ids.join(", ")}.`);
  if (input.cwe_ids.length) facts.push(`Weakness class: ${input.cwe_ids.join(", ")}.`);
  facts.push(`Remediation priority: ${priority}.`);

  const actions: string[] = [];
  if (priority === "immediate")
    actions.push(
      input.kev
        ? "Patch or mitigate now: CISA BOD 22-01 expects KEV entries fixed within weeks at most"
        : "Patch or mitigate now, ahead of normal change windows",
    );
  if (input.remediation_summary) actions.push(input.remediation_summary);
  actions.push(...input.remediation_steps);
  for (const c of cats) actions.push(...c.actions);
  if (playbook) actions.push(`Run the Ansible playbook ${playbook.id}: it ${playbook.does}`);
  if (exposure === "internet" && priority !== "low") actions.push("Until fixed, restrict access to the component with a firewall or allow-list");
  actions.push(`Re-scan ${input.target} to confirm the finding is gone, then mark it resolved`);

  return {
    risk_assessment: facts.join(" "),
    attack_scenarios: [...new Set(cats.flatMap((c) => c.scenarios))],
    remediation_priority: priority,
    recommended_actions: [...new Set(actions.map((a) => a.trim()).filter(Boolean))],
    automation_available: playbook !== undefined,
    ansible_playbook_id: playbook?.id ?? "",
  };
}

export class BuiltinAnalyst implements AiProvider {
  readonly id = "builtin-analyst-v1";
  async analyze(input: AnalysisInput): Promise<AiAnalysis> {
    return analyze(input);
  }
}
