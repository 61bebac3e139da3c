from enum import StrEnum

class RevokeSessionResponse200Status(StrEnum):
    REVOKED = "revoked"

    def __str__(self) -> str:
        return str(self.value)
