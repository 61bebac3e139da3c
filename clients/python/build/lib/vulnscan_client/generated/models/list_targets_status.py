from enum import StrEnum

class ListTargetsStatus(StrEnum):
    EXPIRED = "expired"
    FAILED = "failed"
    PENDING = "pending"
    VERIFIED = "verified"

    def __str__(self) -> str:
        return str(self.value)
