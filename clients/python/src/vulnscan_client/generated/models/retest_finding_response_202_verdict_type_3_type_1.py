from enum import StrEnum

class RetestFindingResponse202VerdictType3Type1(StrEnum):
    FIXED = "fixed"
    INCONCLUSIVE = "inconclusive"
    STILL_VULNERABLE = "still_vulnerable"

    def __str__(self) -> str:
        return str(self.value)
