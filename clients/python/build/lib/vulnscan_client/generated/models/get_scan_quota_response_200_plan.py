from enum import StrEnum

class GetScanQuotaResponse200Plan(StrEnum):
    ENTERPRISE = "enterprise"
    PROFESSIONAL = "professional"
    STARTUP = "startup"

    def __str__(self) -> str:
        return str(self.value)
