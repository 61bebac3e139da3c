from enum import StrEnum

class ExportFindingsFormat(StrEnum):
    CSV = "csv"
    JSON = "json"
    PDF = "pdf"

    def __str__(self) -> str:
        return str(self.value)
