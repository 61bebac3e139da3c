from enum import StrEnum

class ListFindingsResponse200ItemsItemSlaStateType3Type1(StrEnum):
    AT_RISK = "at_risk"
    BREACHED = "breached"
    WITHIN = "within"

    def __str__(self) -> str:
        return str(self.value)
