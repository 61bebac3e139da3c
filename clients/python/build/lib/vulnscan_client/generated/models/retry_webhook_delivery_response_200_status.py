from enum import StrEnum

class RetryWebhookDeliveryResponse200Status(StrEnum):
    FAILED = "failed"
    PENDING = "pending"
    SUCCESS = "success"

    def __str__(self) -> str:
        return str(self.value)
