from enum import StrEnum

class ListFindingRetestsResponse200ItemsItemStatus(StrEnum):
    COMPLETED = "completed"
    PENDING = "pending"

    def __str__(self) -> str:
        return str(self.value)
