from enum import StrEnum

class ListEvidenceResponse200ItemsItemSource(StrEnum):
    RETEST = "retest"
    SCAN = "scan"
    UPLOAD = "upload"

    def __str__(self) -> str:
        return str(self.value)
