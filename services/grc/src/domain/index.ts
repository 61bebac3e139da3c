import type { Catalogue, ComplianceMap } from "@vulnscan/compliance-catalogue";
import { Audits } from "./audits.js";
import { Controls } from "./controls.js";
import { Evidence } from "./evidence.js";
import { FindingsSync } from "./findings-sync.js";
import type { AuditStore, ControlStore, EvidenceStore, FileStore, LinkStore, MalwareScanner, ScanStore, StateStore } from "./ports.js";
import { ComplianceScans } from "./scans.js";
import { VerifiedFixes } from "./verified-fixes.js";

export interface GrcDeps {
  catalogue: Catalogue;
  mapping: ComplianceMap;
  controls: ControlStore;
  links: LinkStore;
  evidence: EvidenceStore;
  files: FileStore;
  audits: AuditStore;
  state: StateStore;
  scans: ScanStore;
  malware: MalwareScanner;
  now: () => Date;
  /** See ControlsDeps.viewMaxAgeMs. */
  viewMaxAgeMs?: number;
}

export type GrcDomain = ReturnType<typeof createGrcDomain>;

/** The use cases, wired on whatever adapters are given (Mongo in the service, memory in unit tests). */
export function createGrcDomain(deps: GrcDeps) {
  const controls = new Controls({ ...deps });
  const evidence = new Evidence({ controls, evidence: deps.evidence, files: deps.files, malware: deps.malware, now: deps.now });
  return {
    catalogue: deps.catalogue,
    controls,
    evidence,
    findings: new FindingsSync({ catalogue: deps.catalogue, controls, controlStore: deps.controls, links: deps.links, now: deps.now }),
    audits: new Audits({ audits: deps.audits, controls, evidence: deps.evidence, now: deps.now }),
    verifiedFixes: new VerifiedFixes({ catalogue: deps.catalogue, controlStore: deps.controls, evidence }),
    scans: new ComplianceScans({ catalogue: deps.catalogue, mapping: deps.mapping, scans: deps.scans, controls, controlStore: deps.controls, evidence }),
  };
}
