from enum import StrEnum

class GetHealthResponse200ServicesAdditionalProperty(StrEnum):
    DOWN = "down"
    UP = "up"

    def __str__(self) -> str:
        return str(self.value)
