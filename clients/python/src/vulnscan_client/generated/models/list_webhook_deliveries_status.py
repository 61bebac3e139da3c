from enum import StrEnum

class ListWebhookDeliveriesStatus(StrEnum):
    FAILED = "failed"
    PENDING = "pending"
    SUCCESS = "success"

    def __str__(self) -> str:
        return str(self.value)
