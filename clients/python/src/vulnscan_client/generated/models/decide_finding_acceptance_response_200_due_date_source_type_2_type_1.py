from enum import StrEnum

class DecideFindingAcceptanceResponse200DueDateSourceType2Type1(StrEnum):
    KEV = "kev"
    POLICY = "policy"
    USER = "user"

    def __str__(self) -> str:
        return str(self.value)
