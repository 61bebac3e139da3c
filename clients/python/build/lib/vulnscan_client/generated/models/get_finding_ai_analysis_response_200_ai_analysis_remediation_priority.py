from enum import StrEnum

class GetFindingAiAnalysisResponse200AiAnalysisRemediationPriority(StrEnum):
    HIGH = "high"
    IMMEDIATE = "immediate"
    LOW = "low"
    MEDIUM = "medium"

    def __str__(self) -> str:
        return str(self.value)
