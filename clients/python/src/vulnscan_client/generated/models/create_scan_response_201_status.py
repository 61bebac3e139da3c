from enum import StrEnum

class CreateScanResponse201Status(StrEnum):
    PENDING = "pending"

    def __str__(self) -> str:
        return str(self.value)
