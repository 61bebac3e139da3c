from enum import StrEnum

class ListWebhookDeliveriesResponse200ItemsItemStatus(StrEnum):
    FAILED = "failed"
    PENDING = "pending"
    SUCCESS = "success"

    def __str__(self) -> str:
        return str(self.value)
