from enum import StrEnum

class ListScanFindingsResponse200ItemsItemConfidenceType2Type1(StrEnum):
    CONFIRMED = "confirmed"
    VERSION_MATCH = "version_match"
    VERSION_MATCH_UNVERIFIED_BACKPORT = "version_match_unverified_backport"

    def __str__(self) -> str:
        return str(self.value)
