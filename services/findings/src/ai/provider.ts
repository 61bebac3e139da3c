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
  remediation_summary: string;
  remediation_steps: string[];
}

/** The spec's `ai_analysis` object. */
export interface AiAnalysis {
  risk_assessment: string;
  attack_scenarios: string[];
  /** immediate | high | medium | low */
  remediation_priority: "immediate" | "high" | "medium" | "low";
  recommended_actions: string[];
  automation_available: boolean;
  /** A playbook under ansible/playbooks/ (without .yml), "" when none applies. */
  ansible_playbook_id: string;
}

/** Remediation guidance. The built-in analyst is deterministic; others may call a model. */
export interface AiProvider {
  /** Identifies provider and version: a cached analysis is reused only from the same provider. */
  readonly id: string;
  analyze(input: AnalysisInput): Promise<AiAnalysis>;
}
