from enum import StrEnum

class ListTargetsResponse200ItemsItemKind(StrEnum):
    CIDR = "cidr"
    DOMAIN = "domain"
    IP = "ip"

    def __str__(self) -> str:
        return str(self.value)
