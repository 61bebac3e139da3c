from enum import StrEnum

class DeleteTargetResponse200Status(StrEnum):
    DELETED = "deleted"

    def __str__(self) -> str:
        return str(self.value)
