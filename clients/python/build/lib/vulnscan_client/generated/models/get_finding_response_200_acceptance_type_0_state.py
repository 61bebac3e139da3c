from enum import StrEnum

class GetFindingResponse200AcceptanceType0State(StrEnum):
    APPROVED = "approved"
    EXPIRED = "expired"
    PENDING = "pending"
    REJECTED = "rejected"
    WITHDRAWN = "withdrawn"

    def __str__(self) -> str:
        return str(self.value)
