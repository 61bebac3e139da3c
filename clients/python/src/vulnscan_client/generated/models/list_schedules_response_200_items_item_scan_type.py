from enum import StrEnum

class ListSchedulesResponse200ItemsItemScanType(StrEnum):
    COMPLIANCE = "compliance"
    FULL = "full"
    QUICK = "quick"

    def __str__(self) -> str:
        return str(self.value)
