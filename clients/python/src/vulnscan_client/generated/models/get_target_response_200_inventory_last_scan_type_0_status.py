from enum import StrEnum

class GetTargetResponse200InventoryLastScanType0Status(StrEnum):
    COMPLETED = "completed"
    FAILED = "failed"

    def __str__(self) -> str:
        return str(self.value)
