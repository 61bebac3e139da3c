from enum import StrEnum

class UploadEvidenceResponse201Source(StrEnum):
    SCAN = "scan"
    UPLOAD = "upload"

    def __str__(self) -> str:
        return str(self.value)
