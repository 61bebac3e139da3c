from enum import StrEnum

class GetTargetResponse200Kind(StrEnum):
    CIDR = "cidr"
    DOMAIN = "domain"
    IP = "ip"

    def __str__(self) -> str:
        return str(self.value)
