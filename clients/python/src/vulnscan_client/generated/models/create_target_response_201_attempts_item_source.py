from enum import StrEnum

class CreateTargetResponse201AttemptsItemSource(StrEnum):
    API = "api"
    OPERATOR = "operator"
    RECHECK = "recheck"
    SCHEDULE = "schedule"

    def __str__(self) -> str:
        return str(self.value)
