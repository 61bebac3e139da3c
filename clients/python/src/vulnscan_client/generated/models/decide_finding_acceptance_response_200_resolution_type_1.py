from enum import StrEnum

class DecideFindingAcceptanceResponse200ResolutionType1(StrEnum):
    NOT_DETECTED = "not_detected"
    VERIFIED_FIXED = "verified_fixed"

    def __str__(self) -> str:
        return str(self.value)
