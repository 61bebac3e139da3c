from enum import StrEnum

class GetScanResponse200ScanType(StrEnum):
    COMPLIANCE = "compliance"
    FULL = "full"
    QUICK = "quick"

    def __str__(self) -> str:
        return str(self.value)
