from enum import StrEnum

class ListControlsStatus(StrEnum):
    FAILING = "failing"
    IMPLEMENTED = "implemented"
    IN_PROGRESS = "in_progress"
    NOT_APPLICABLE = "not_applicable"
    NOT_STARTED = "not_started"

    def __str__(self) -> str:
        return str(self.value)
