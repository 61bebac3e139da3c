from enum import StrEnum

class ListEvidenceResponse200ItemsItemStatus(StrEnum):
    CLEAN = "clean"
    EXPIRED = "expired"
    PENDING_SCAN = "pending_scan"
    QUARANTINED = "quarantined"

    def __str__(self) -> str:
        return str(self.value)
