from enum import StrEnum

class CreateScheduleBodyScanType(StrEnum):
    COMPLIANCE = "compliance"
    FULL = "full"
    QUICK = "quick"

    def __str__(self) -> str:
        return str(self.value)
