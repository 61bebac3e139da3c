from enum import StrEnum

class ListTargetsKind(StrEnum):
    CIDR = "cidr"
    DOMAIN = "domain"
    IP = "ip"

    def __str__(self) -> str:
        return str(self.value)
