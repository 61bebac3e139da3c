from enum import StrEnum

class VerifyTargetResponse200VerificationStatus(StrEnum):
    EXPIRED = "expired"
    FAILED = "failed"
    PENDING = "pending"
    VERIFIED = "verified"

    def __str__(self) -> str:
        return str(self.value)
