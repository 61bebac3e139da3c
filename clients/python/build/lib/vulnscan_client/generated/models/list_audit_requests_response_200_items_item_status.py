from enum import StrEnum

class ListAuditRequestsResponse200ItemsItemStatus(StrEnum):
    CLOSED = "closed"
    IN_PROGRESS = "in_progress"
    OPEN = "open"

    def __str__(self) -> str:
        return str(self.value)
