from enum import StrEnum

class ListFindingRetestsResponse200ItemsItemVerdictType1(StrEnum):
    FIXED = "fixed"
    INCONCLUSIVE = "inconclusive"
    STILL_VULNERABLE = "still_vulnerable"

    def __str__(self) -> str:
        return str(self.value)
