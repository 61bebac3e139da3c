from enum import StrEnum

class GetHealthResponse503Status(StrEnum):
    DEGRADED = "degraded"
    HEALTHY = "healthy"

    def __str__(self) -> str:
        return str(self.value)
