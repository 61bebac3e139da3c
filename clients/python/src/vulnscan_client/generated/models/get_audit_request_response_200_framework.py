from enum import StrEnum

class GetAuditRequestResponse200Framework(StrEnum):
    CIS_CONTROLS = "cis_controls"
    GDPR = "gdpr"
    HIPAA = "hipaa"
    ISO27001 = "iso27001"
    NIST_800_53 = "nist_800_53"
    NIST_CSF = "nist_csf"
    PCI_DSS = "pci_dss"
    SOC2 = "soc2"

    def __str__(self) -> str:
        return str(self.value)
