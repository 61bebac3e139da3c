from enum import StrEnum

class GetFindingResponse200DueDateSourceType3Type1(StrEnum):
    KEV = "kev"
    POLICY = "policy"
    USER = "user"

    def __str__(self) -> str:
        return str(self.value)
