from enum import StrEnum

class DecideFindingAcceptanceResponse200PriorityType2Type1(StrEnum):
    CRITICAL = "critical"
    HIGH = "high"
    LOW = "low"
    MEDIUM = "medium"

    def __str__(self) -> str:
        return str(self.value)
