from enum import StrEnum

class BulkUpdateFindingsBodyUpdateStatus(StrEnum):
    ACCEPTED = "accepted"
    FALSE_POSITIVE = "false_positive"
    IN_PROGRESS = "in_progress"
    OPEN = "open"
    RESOLVED = "resolved"

    def __str__(self) -> str:
        return str(self.value)
