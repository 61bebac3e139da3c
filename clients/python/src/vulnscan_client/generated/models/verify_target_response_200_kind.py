from enum import StrEnum

class VerifyTargetResponse200Kind(StrEnum):
    CIDR = "cidr"
    DOMAIN = "domain"
    IP = "ip"

    def __str__(self) -> str:
        return str(self.value)
