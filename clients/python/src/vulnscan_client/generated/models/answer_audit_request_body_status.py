from enum import StrEnum

class AnswerAuditRequestBodyStatus(StrEnum):
    CLOSED = "closed"
    IN_PROGRESS = "in_progress"

    def __str__(self) -> str:
        return str(self.value)
