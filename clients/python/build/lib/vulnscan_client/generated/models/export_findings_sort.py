from enum import StrEnum

class ExportFindingsSort(StrEnum):
    CREATED_AT = "created_at"
    CVSS_SCORE = "cvss_score"
    DUE_DATE = "due_date"
    SEVERITY = "severity"
    SLA_STATE = "sla_state"

    def __str__(self) -> str:
        return str(self.value)
