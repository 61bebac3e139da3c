from enum import StrEnum

class GetFindingAiAnalysisResponse200AiAnalysisSource(StrEnum):
    BUILTIN = "builtin"
    BUILTIN_FALLBACK = "builtin_fallback"
    MODEL = "model"

    def __str__(self) -> str:
        return str(self.value)
