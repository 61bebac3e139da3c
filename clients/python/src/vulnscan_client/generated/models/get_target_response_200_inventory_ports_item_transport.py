from enum import StrEnum

class GetTargetResponse200InventoryPortsItemTransport(StrEnum):
    TCP = "tcp"
    TLS = "tls"

    def __str__(self) -> str:
        return str(self.value)
