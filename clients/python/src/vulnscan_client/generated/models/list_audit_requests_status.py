from enum import StrEnum

class ListAuditRequestsStatus(StrEnum):
    CLOSED = "closed"
    IN_PROGRESS = "in_progress"
    OPEN = "open"

    def __str__(self) -> str:
        return str(self.value)
