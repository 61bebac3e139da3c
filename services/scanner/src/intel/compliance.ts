// The CWE → control mapping lives in the shared catalogue package, so the frameworks a finding
// carries and the controls grc marks failing come from one data set and cannot disagree.
export { ComplianceMap, DEFAULT_COMPLIANCE_FILE, FRAMEWORK_IDS, type FrameworkId, type FrameworkMapping } from "@vulnscan/compliance-catalogue";
