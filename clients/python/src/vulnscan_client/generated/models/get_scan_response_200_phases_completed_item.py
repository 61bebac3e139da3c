from enum import StrEnum

class GetScanResponse200PhasesCompletedItem(StrEnum):
    AI_ANALYSIS = "ai_analysis"
    CLOUD_ANALYSIS = "cloud_analysis"
    COMPLIANCE_MAPPING = "compliance_mapping"
    CORRELATION = "correlation"
    DISCOVERY = "discovery"
    ENUMERATION = "enumeration"
    REMEDIATION_PLANNING = "remediation_planning"
    REPORTING = "reporting"
    THREAT_INTELLIGENCE = "threat_intelligence"
    VULNERABILITY_SCANNING = "vulnerability_scanning"
    WEB_ANALYSIS = "web_analysis"

    def __str__(self) -> str:
        return str(self.value)
