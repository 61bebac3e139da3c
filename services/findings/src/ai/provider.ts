/** What an analyst sees of a finding (no comments, no people). */
export interface AnalysisInput {
  finding_id: string;
  title: string;
  severity: string;
  cvss_score: number;
  cvss_vector: string;
  epss_score: number | null;
  kev: boolean;
  cwe_ids: string[];
  cve_ids: string[];
  tool: string;
  template_id: string;
  target: string;
  affected_component: string;
  description: string;
  impact: string;
  remediation_summary: string;
  remediation_steps: string[];
  /** The finding's references (advisories, NVD). */
  references: string[];
  /** What the scanner sent and saw (banners, headers): facts the analysis may quote. */
  evidence_request: string;
  evidence_response: string;
  /** How far the scanner vouches for it (confirmed, version_match, version_match_unverified_backport); "" or absent when unknown. */
  confidence?: string;
}

/** Which path wrote an analysis: the built-in rules, a model, or the rules after a model's answer was refused. */
export type AnalysisSource = "builtin" | "model" | "builtin_fallback";

/**
 * The spec's `ai_analysis` object. Its prose fields are CommonMark (inline code for files,
 * directives and commands); the console renders them as markdown, without HTML.
 */
export interface AiAnalysis {
  risk_assessment: string;
  attack_scenarios: string[];
  /** immediate | high | medium | low */
  remediation_priority: "immediate" | "high" | "medium" | "low";
  recommended_actions: string[];
  automation_available: boolean;
  /** A playbook under ansible/playbooks/ (without .yml), "" when none applies. */
  ansible_playbook_id: string;
  /** The one category the finding was classified in (its id in data/analyst-categories.json). */
  category: string;
  source: AnalysisSource;
  /** The provider's id, and for `builtin_fallback` why the model's answer was refused. */
  source_detail: string;
}

/** Remediation guidance. The built-in analyst is deterministic; others may call a model. */
export interface AiProvider {
  /** Identifies provider and version: a cached analysis is reused only from the same provider. */
  readonly id: string;
  analyze(input: AnalysisInput): Promise<AiAnalysis>;
}
