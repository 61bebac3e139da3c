from enum import StrEnum

class GetEvidenceResponse200Source(StrEnum):
    SCAN = "scan"
    UPLOAD = "upload"

    def __str__(self) -> str:
        return str(self.value)
