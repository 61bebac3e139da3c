from enum import StrEnum

class ListFindingRetestsResponse200ItemsItemReasonType1(StrEnum):
    REFUSED = "refused"
    TIMEOUT = "timeout"
    UNREACHABLE = "unreachable"

    def __str__(self) -> str:
        return str(self.value)
