from enum import StrEnum

class DecideFindingAcceptanceResponse200DueDateSourceType1(StrEnum):
    KEV = "kev"
    POLICY = "policy"
    USER = "user"

    def __str__(self) -> str:
        return str(self.value)
