from enum import StrEnum

class RetestFindingResponse202Status(StrEnum):
    COMPLETED = "completed"
    PENDING = "pending"

    def __str__(self) -> str:
        return str(self.value)
