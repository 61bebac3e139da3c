from enum import StrEnum

class GetEvidenceResponse200Source(StrEnum):
    RETEST = "retest"
    SCAN = "scan"
    UPLOAD = "upload"

    def __str__(self) -> str:
        return str(self.value)
