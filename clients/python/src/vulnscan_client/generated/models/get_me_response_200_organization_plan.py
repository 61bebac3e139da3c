from enum import StrEnum

class GetMeResponse200OrganizationPlan(StrEnum):
    ENTERPRISE = "enterprise"
    PROFESSIONAL = "professional"
    STARTUP = "startup"

    def __str__(self) -> str:
        return str(self.value)
