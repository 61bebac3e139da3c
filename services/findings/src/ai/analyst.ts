import { type Category, classify, type Kind } from "./classify.js";
import { bannerDistributionOf, distributionFixOf, type Exposure, exposureOf, type Location, locationOf, upstreamFixOf, WHO } from "./facts.js";
import { categoryVerification, fill, type ProductGuidance, productGuidance, type TemplateGuidance, templateGuidance } from "./guidance.js";
import { playbook as playbookById } from "./playbooks.js";
import type { AiAnalysis, AiProvider, AnalysisInput } from "./provider.js";

export { exposureOf } from "./facts.js";

/*
 * The built-in analyst: deterministic rules over the facts a finding carries. Same input, same
 * output; no network. It classifies the finding once (classify.ts) and says only what follows
 * from that category and the finding's own facts: a configuration problem gets the settings to
 * change and never an upgrade; a flaw of a version gets the fixed version and the advisory and
 * never "require authentication" (consistency.ts states these rules; a test holds the whole
 * catalogue to them). Text is CommonMark: files, directives and commands as inline code.
 *
 * Priority, most urgent first:
 *   immediate  listed in KEV, or EPSS ≥ 0.5, or CVSS ≥ 9 reachable from the network
 *   high       CVSS ≥ 7, or EPSS ≥ 0.1, or critical/high severity
 *   medium     CVSS ≥ 4, or medium severity
 *   low        everything else, and every info-severity finding
 */

export const BUILTIN_ID = "builtin-analyst-v2";

export function priorityOf(input: AnalysisInput): AiAnalysis["remediation_priority"] {
  // The scanner rates a finding info when it found nothing exploitable (a patched distribution
  // revision, a client-side CVE behind a server banner): the CVE's EPSS says nothing about it.
  if (input.severity === "info") return "low";
  const exposure = exposureOf(input);
  const epss = input.epss_score ?? 0;
  if (input.kev || epss >= 0.5 || (input.cvss_score >= 9 && (exposure === "internet" || exposure === "internal"))) return "immediate";
  if (input.cvss_score >= 7 || epss >= 0.1 || input.severity === "critical" || input.severity === "high") return "high";
  if (input.cvss_score >= 4 || input.severity === "medium") return "medium";
  return "low";
}

const pct = (x: number) => `${Math.round(x * 1000) / 10}%`;
const code = (s: string) => (s.includes("`") ? `\`\` ${s} \`\`` : `\`${s}\``);
/** A command as inline code; a trailing "   (note)" stays prose, "(or: other command)" becomes "or `other command`". */
const command = (s: string) => {
  const m = /^(.*?)\s{2,}\((.*)\)$/.exec(s);
  if (!m) return code(s);
  const alt = /^or: (.*)$/.exec(m[2]!);
  return `${code(m[1]!)} (${alt ? `or ${code(alt[1]!)}` : m[2]})`;
};
const capital = (s: string) => `${s[0]?.toUpperCase() ?? ""}${s.slice(1)}`;

interface Facts {
  input: AnalysisInput;
  category: Category;
  kind: Kind;
  /** A version match rated info by the scanner. */
  note: boolean;
  exposure: Exposure;
  at: Location;
  priority: AiAnalysis["remediation_priority"];
  template?: TemplateGuidance;
  product?: ProductGuidance;
  cve: string;
}

function factsOf(input: AnalysisInput): Facts {
  const { category } = classify(input);
  // A version match the scanner rated info (patched revision, not observable from the network)
  // is a note: no upgrade, no exploit scenario.
  const note = category.kind === "vulnerability" && input.severity === "info";
  const kind: Kind = note ? "informational" : category.kind;
  const at = locationOf(input);
  const cve = input.cve_ids[0] ?? /CVE-\d{4}-\d+/i.exec(`${input.template_id} ${input.title}`)?.[0] ?? "the flaw";
  return {
    input,
    category,
    kind,
    note,
    exposure: exposureOf(input),
    at,
    priority: priorityOf(input),
    template: templateGuidance(input.template_id),
    // Products only for flaws of a version: a Redis configuration finding is not about the Redis release.
    product: category.kind === "vulnerability" ? productGuidance(`${input.affected_component} ${input.title}`) : undefined,
    cve,
  };
}

function risk(f: Facts): string {
  const { input, at } = f;
  const out = [
    `**${capital(input.severity)}** severity ${f.category.name} in ${code(input.affected_component || input.target)} (CVSS ${input.cvss_score.toFixed(1)}).`,
  ];
  if (f.kind === "misconfiguration") out.push("It is a configuration problem, not a flaw of the installed version: changing settings fixes it.");
  else if (f.kind === "vulnerability") {
    out.push("It is a flaw of the installed software: an upgrade (or the vendor's mitigation) fixes it.");
    if (input.confidence === "version_match" || (input.tool === "cve-match" && !input.confidence))
      out.push(`It was matched by the version the service announces${input.confidence ? " (confidence `version_match`)" : ""}, not by exploiting it.`);
  } else if (f.note) out.push("The scanner rates it info: it found the version in the CVE's range but nothing exploitable here (the description says why).");
  else out.push("It is a note for the inventory, not a weakness by itself.");
  if (input.confidence === "version_match_unverified_backport")
    out.push("The distribution's package revision could not be resolved against its fixed version: check the installed package before acting.");

  const host = at.host;
  out.push(
    f.exposure === "internet"
      ? `${code(host)} is not a private address: the component is reachable from the internet unless a firewall says otherwise.`
      : f.exposure === "internal"
        ? `${code(host)} is a private address: an attacker needs a foothold in the network first.`
        : f.exposure === "adjacent"
          ? "Exploitation needs access to the same network segment."
          : "Exploitation needs local access to the host.",
  );
  if (input.kev) out.push("It is listed in CISA's Known Exploited Vulnerabilities catalogue: it is being exploited in the wild.");
  if (input.epss_score !== null) out.push(`EPSS puts the probability of exploitation in the next 30 days at ${pct(input.epss_score)}.`);
  if (input.cve_ids.length) out.push(`Tracked as ${input.cve_ids.join(", ")}.`);
  if (input.cwe_ids.length) out.push(`Weakness class: ${input.cwe_ids.join(", ")}.`);
  out.push(`Remediation priority: **${f.priority}**.`);
  return out.join(" ");
}

function scenarios(f: Facts): string[] {
  if (f.note) return [`None as reported: the scanner found nothing that makes ${f.cve} exploitable on ${f.at.service} here`];
  const out = f.category.scenarios.map((s) => fillScenario(s, f));
  if (f.input.kev) out.unshift(`Attackers are exploiting ${f.cve} now (CISA KEV): a reachable ${f.at.service} is a likely target`);
  return out;
}

function fillScenario(s: string, f: Facts): string {
  return s
    .replace(/\{who\}/g, WHO[f.exposure])
    .replace(/\{service\}/g, f.at.service)
    .replace(/\{component\}/g, code(f.input.affected_component || f.input.target))
    .replace(/\{cve\}/g, f.cve)
    .replace(/\{host\}/g, f.at.host)
    .replace(/\{port\}/g, f.at.port)
    .replace(/\{path\}/g, f.at.path);
}

/** One action per file: the lines to set, inline when short, a code block when a line spans several. */
function configActions(g: TemplateGuidance, at: Location): string[] {
  const byFile = new Map<string, string[]>();
  for (const c of g.config ?? []) byFile.set(fill(c.file, at), [...(byFile.get(fill(c.file, at)) ?? []), fill(c.line, at)]);
  return [...byFile].map(([file, lines]) => {
    const where = file.startsWith("/") && !file.includes(" ") ? code(file) : file;
    return lines.some((l) => l.includes("\n") || l.length > 90)
      ? `In ${where}:\n\n\`\`\`\n${lines.join("\n")}\n\`\`\``
      : `In ${where}, set ${lines.map(command).join(", ")}`;
  });
}

function actions(f: Facts): string[] {
  const { input, at, template, product } = f;
  const out: string[] = [];
  if (f.priority === "immediate")
    out.push(
      input.kev
        ? "Act now: CISA BOD 22-01 expects Known Exploited Vulnerabilities fixed within weeks at most"
        : f.kind === "vulnerability"
          ? "Act now, ahead of normal change windows"
          : "Change the configuration now, ahead of normal change windows",
    );
  if (f.note) {
    out.push(...[input.remediation_summary, ...input.remediation_steps].filter(Boolean));
    if (product) out.push(`Advisory: <${product.advisory}>`);
  } else if (f.kind === "vulnerability") {
    if (product) out.push(`Check the installed version: ${command(product.installed)}`);
    const upstream = upstreamFixOf(input);
    const distro = distributionFixOf(input);
    if (distro) out.push(`Upgrade the package to the ${distro.distribution} release that fixes ${f.cve}: ${code(distro.version)} or later`);
    if (/\d/.test(upstream))
      out.push(`Fixed upstream in ${upstream}; distributions backport fixes without changing the version, so compare the package revision with their advisory`);
    else if (!distro) out.push(...[input.remediation_summary, ...input.remediation_steps].filter(Boolean));
    if (product) out.push(`Upgrade: ${command(fill(product.apply, at))}`);
    const advisories = [product && `<${product.advisory}>`, bannerDistribution(f)].filter(Boolean);
    if (advisories.length) out.push(`Advisories: ${advisories.join(", ")}`);
  } else if (input.remediation_summary) out.push(input.remediation_summary);

  if (template) {
    out.push(...configActions(template, at));
    out.push(...(template.steps ?? []).map((s) => fill(s, at)));
    if (template.apply) out.push(`Apply it: ${command(fill(template.apply, at))}`);
  } else if (f.kind !== "vulnerability") out.push(...input.remediation_steps);
  out.push(...f.category.actions.map((a) => fillScenario(a, f)));

  const pb = playbookOf(f);
  if (pb) out.push(`Or run the Ansible playbook \`${pb.id}\`: it ${pb.does}`);
  if (f.kind !== "informational" && f.exposure === "internet" && f.priority !== "low")
    out.push(`Until it is fixed, allow only the hosts that need ${at.service} to reach ${code(`${at.host}:${at.port}`)} (firewall or security group)`);

  const check =
    template ??
    (product && { verify: product.verify, expect: "the fixed version (or the distribution's fixed revision)" }) ??
    categoryVerification(f.category.id);
  if (check && !f.note) out.push(`Verify by hand: ${command(fill(check.verify, at))} should show ${fill(check.expect, at)}`);
  if (f.kind !== "informational") out.push(`Re-scan ${input.target} to confirm the finding is gone, then mark it resolved`);
  return out;
}

/** The check's playbook, else the product's (version findings), else the category's when the check has no guidance. */
function playbookOf(f: Facts) {
  if (f.note) return undefined;
  return playbookById(f.template ? f.template.playbook : (f.product?.playbook ?? f.category.playbook));
}

/** The distribution's tracker for the CVE when the banner names Debian or Ubuntu. */
function bannerDistribution(f: Facts): string | undefined {
  if (!f.cve.startsWith("CVE-")) return undefined;
  const d = bannerDistributionOf(f.input);
  if (d === "Debian") return `<https://security-tracker.debian.org/tracker/${f.cve}>`;
  if (d === "Ubuntu") return `<https://ubuntu.com/security/${f.cve}>`;
  return undefined;
}

export function analyze(input: AnalysisInput): AiAnalysis {
  const f = factsOf(input);
  const pb = playbookOf(f);
  return {
    risk_assessment: risk(f),
    attack_scenarios: [...new Set(scenarios(f))],
    remediation_priority: f.priority,
    recommended_actions: [...new Set(actions(f).map((a) => a.trim()))].filter(Boolean),
    automation_available: pb !== undefined,
    ansible_playbook_id: pb?.id ?? "",
    category: f.category.id,
    source: "builtin",
    source_detail: BUILTIN_ID,
  };
}

/** The category's kind, for the consistency check of another provider's answer. */
export function kindOf(input: AnalysisInput): Kind {
  return classify(input).category.kind;
}

export class BuiltinAnalyst implements AiProvider {
  readonly id = BUILTIN_ID;
  async analyze(input: AnalysisInput): Promise<AiAnalysis> {
    return analyze(input);
  }
}
