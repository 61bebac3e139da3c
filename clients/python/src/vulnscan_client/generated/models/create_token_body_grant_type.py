from enum import StrEnum

class CreateTokenBodyGrantType(StrEnum):
    PASSWORD = "password"

    def __str__(self) -> str:
        return str(self.value)
