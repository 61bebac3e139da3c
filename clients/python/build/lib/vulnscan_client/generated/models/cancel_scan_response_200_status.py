from enum import StrEnum

class CancelScanResponse200Status(StrEnum):
    CANCELLED = "cancelled"

    def __str__(self) -> str:
        return str(self.value)
