import { insightsOf } from "../../intel/analysis.js";
import type { Template } from "../../templates-engine/schema.js";
import { CONFIDENCE_ORDER, type DetectionDraft, type PhaseHandler } from "../types.js";

const SECRET_CWES = new Set(["CWE-798", "CWE-312", "CWE-522", "CWE-256", "CWE-260", "CWE-259"]);
const DEFAULT_CRED_CWES = new Set(["CWE-1392", "CWE-1393", "CWE-521"]);
const PANEL_TAGS = new Set(["panel", "admin"]);
const CREDENTIAL_TAGS = new Set(["secrets", "default-credentials", "default-credentials-risk"]);

/**
 * correlation: facts that only show when detections are seen together. Each rule reports one
 * detection that names the detections it combines; nothing is inferred beyond them.
 * - The same CVE on several hosts or components: one note listing them (fix it fleet-wide).
 * - An administration interface on a host that also leaks credentials or accepts default or
 *   anonymous credentials: the leaked or default credentials may open the interface.
 */
export function correlation(deps: { templates: Template[] }): PhaseHandler {
  const tagsById = new Map(deps.templates.map((t) => [t.id, new Set(t.tags)]));
  const tagsOf = (d: DetectionDraft) => tagsById.get(d.templateId) ?? new Set<string>();
  const isPanel = (d: DetectionDraft) => [...tagsOf(d)].some((t) => PANEL_TAGS.has(t));
  const isCredentialLeak = (d: DetectionDraft) =>
    [...tagsOf(d)].some((t) => CREDENTIAL_TAGS.has(t)) || d.cweIds.some((c) => SECRET_CWES.has(c) || DEFAULT_CRED_CWES.has(c));

  return async (ctx) => {
    ctx.setTool("correlator");
    const notes = insightsOf(ctx).correlations;
    const found = ctx.detections.filter((d) => !d.templateId.startsWith("correlation:") && d.templateId !== "remediation-plan");

    // Same CVE on several components.
    const byCve = new Map<string, DetectionDraft[]>();
    // Info-level CVE notes (a patched distribution build, a client-side flaw) are not a spread.
    for (const d of found) if (d.severity !== "info") for (const cve of d.cveIds) byCve.set(cve, [...(byCve.get(cve) ?? []), d]);
    for (const [cve, list] of [...byCve].sort(([a], [b]) => a.localeCompare(b))) {
      const components = [...new Set(list.map((d) => d.affectedComponent))].sort();
      if (components.length < 2 || ctx.signal.aborted) continue;
      const worst = list.reduce((a, b) => (b.cvssScore > a.cvssScore ? b : a));
      notes.push(`${cve} on ${components.length} components`);
      await ctx.report({
        templateId: `correlation:cve-spread:${cve}`,
        title: `${cve} found on ${components.length} components`,
        severity: "info",
        cvssScore: 0,
        cvssVector: "",
        cweIds: [],
        cveIds: [],
        tool: "correlator",
        target: ctx.target,
        affectedComponent: cve,
        description: `${cve} (${worst.title}) was detected on ${components.length} components of this scan:\n${components.map((c) => `- ${c}`).join("\n")}`,
        impact: "One vulnerable build or image is deployed in several places; fixing a single host leaves the others exposed.",
        remediation: {
          summary: `Fix ${cve} at its source (package, image or template) and roll the fix out to every listed component.`,
          steps: ["Identify the shared image, package source or configuration.", "Update it once and redeploy every component listed.", "Re-scan all of them."],
          codeExample: "",
          references: [`https://nvd.nist.gov/vuln/detail/${cve}`],
        },
        evidence: { request: `correlation of ${list.length} detections`, response: components.join("\n") },
        // As sure as the least sure of the detections it groups.
        confidence: CONFIDENCE_ORDER[Math.max(...list.map((d) => CONFIDENCE_ORDER.indexOf(d.confidence)))] ?? "version_match",
      });
    }

    // Administration interface + leaked or default credentials on the same host.
    const byHost = new Map<string, DetectionDraft[]>();
    for (const d of found) byHost.set(d.target, [...(byHost.get(d.target) ?? []), d]);
    for (const [host, list] of [...byHost].sort(([a], [b]) => a.localeCompare(b))) {
      const panels = list.filter(isPanel);
      const leaks = list.filter((d) => isCredentialLeak(d) && !isPanel(d));
      if (!panels.length || !leaks.length || ctx.signal.aborted) continue;
      const strongest = leaks.reduce((a, b) => (b.cvssScore > a.cvssScore ? b : a));
      notes.push(`admin interface with credential exposure on ${host}`);
      await ctx.report({
        templateId: "correlation:admin-interface-with-credential-exposure",
        title: "Administration interface exposed on a host that leaks or accepts default credentials",
        severity: strongest.severity === "critical" || strongest.severity === "high" ? "high" : "medium",
        cvssScore: strongest.cvssScore,
        cvssVector: strongest.cvssVector,
        cweIds: [...new Set(leaks.flatMap((d) => d.cweIds))],
        cveIds: [],
        tool: "correlator",
        target: host,
        affectedComponent: panels
          .map((p) => p.affectedComponent)
          .sort()
          .join(", "),
        description:
          `The host exposes ${panels.map((p) => p.title).join(", ")} and also: ${leaks.map((l) => `${l.title} (${l.affectedComponent})`).join("; ")}. ` +
          "Credentials obtained from the latter may grant access to the former; this was not attempted.",
        impact: "An attacker needs no password guessing if a leaked or default credential is valid for the administration interface.",
        remediation: {
          summary: "Remove the credential exposure, rotate the affected credentials, and restrict the administration interface to trusted networks.",
          steps: [
            "Fix the credential exposure first (see the listed findings).",
            "Rotate every credential that was exposed, and change default passwords.",
            "Put the administration interface behind a VPN or SSO proxy and enable MFA.",
          ],
          codeExample: "",
          references: ["https://owasp.org/Top10/A07_2021-Identification_and_Authentication_Failures/"],
        },
        evidence: { request: `correlation on ${host}`, response: [...panels, ...leaks].map((d) => `${d.templateId}: ${d.affectedComponent}`).join("\n") },
        confidence: CONFIDENCE_ORDER[Math.max(...[...panels, ...leaks].map((d) => CONFIDENCE_ORDER.indexOf(d.confidence)))] ?? "version_match",
      });
    }
  };
}
