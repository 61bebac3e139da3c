"""The vulnscan API for Python.

``Vulnscan`` signs in (or takes an API key), keeps its token fresh, retries after 429 and 503,
turns error answers into ``VulnscanError`` and walks lists page by page; the typed calls and
models are generated from the API's OpenAPI document (``vulnscan_client.generated.api.<tag>``,
``vulnscan_client.generated.models``); ``verify_webhook`` checks a delivery's signature.
"""

from ._client import Vulnscan, VulnscanError, retry_after_seconds
from ._webhooks import WebhookVerificationError, verify_webhook

__all__ = ["Vulnscan", "VulnscanError", "WebhookVerificationError", "retry_after_seconds", "verify_webhook"]
