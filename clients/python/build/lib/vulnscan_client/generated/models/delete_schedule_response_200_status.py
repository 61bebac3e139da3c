from enum import StrEnum

class DeleteScheduleResponse200Status(StrEnum):
    DELETED = "deleted"

    def __str__(self) -> str:
        return str(self.value)
