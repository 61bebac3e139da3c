from enum import StrEnum

class TestWebhookResponse200Status(StrEnum):
    FAILED = "failed"
    SUCCESS = "success"

    def __str__(self) -> str:
        return str(self.value)
