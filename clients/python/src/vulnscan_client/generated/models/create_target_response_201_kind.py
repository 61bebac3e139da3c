from enum import StrEnum

class CreateTargetResponse201Kind(StrEnum):
    CIDR = "cidr"
    DOMAIN = "domain"
    IP = "ip"

    def __str__(self) -> str:
        return str(self.value)
