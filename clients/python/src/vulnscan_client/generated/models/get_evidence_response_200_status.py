from enum import StrEnum

class GetEvidenceResponse200Status(StrEnum):
    CLEAN = "clean"
    EXPIRED = "expired"
    PENDING_SCAN = "pending_scan"
    QUARANTINED = "quarantined"

    def __str__(self) -> str:
        return str(self.value)
