from enum import StrEnum

class UploadEvidenceResponse201Source(StrEnum):
    RETEST = "retest"
    SCAN = "scan"
    UPLOAD = "upload"

    def __str__(self) -> str:
        return str(self.value)
