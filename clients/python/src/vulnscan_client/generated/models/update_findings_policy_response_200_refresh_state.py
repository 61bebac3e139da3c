from enum import StrEnum

class UpdateFindingsPolicyResponse200RefreshState(StrEnum):
    DONE = "done"
    RUNNING = "running"

    def __str__(self) -> str:
        return str(self.value)
