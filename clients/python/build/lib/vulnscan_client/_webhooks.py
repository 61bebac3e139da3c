"""Webhook signature verification, both schemes the service sends."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from typing import Any, Mapping, Optional, Union


class WebhookVerificationError(Exception):
    """The delivery's signature did not hold (or its timestamp was too far off)."""


def _header(headers: Mapping[str, Any], name: str) -> Optional[str]:
    for key, value in headers.items():
        if key.lower() == name:
            return value[0] if isinstance(value, (list, tuple)) else value
    return None


def verify_webhook(body: Union[bytes, str], headers: Mapping[str, Any], secret: str, tolerance_seconds: int = 300, now: Optional[float] = None) -> dict:
    """Checks a delivery before its body is parsed, and returns the parsed body.

    With the Standard Webhooks headers (``webhook-id``, ``webhook-timestamp``,
    ``webhook-signature: v1,<base64>`` over ``<id>.<timestamp>.<body>``, keyed by the secret's
    UTF-8 bytes) that signature is checked and a timestamp more than ``tolerance_seconds`` away
    is refused (a replay); otherwise ``X-Service-Signature: sha256=<hex HMAC-SHA256 of the body>``.
    Comparisons are constant-time. Pass the raw body bytes exactly as received.
    """
    raw = body.encode("utf-8") if isinstance(body, str) else body
    key = secret.encode("utf-8")
    wid, ts, sig = _header(headers, "webhook-id"), _header(headers, "webhook-timestamp"), _header(headers, "webhook-signature")
    if wid and ts and sig:
        try:
            seconds = int(ts)
        except ValueError as exc:
            raise WebhookVerificationError("webhook-timestamp is not a number") from exc
        if abs((time.time() if now is None else now) - seconds) > tolerance_seconds:
            raise WebhookVerificationError("webhook-timestamp is too old or too new")
        expected = hmac.new(key, f"{wid}.{ts}.".encode() + raw, hashlib.sha256).digest()
        # Several signatures may be sent (secret rotation), space-separated.
        if not any(s.startswith("v1,") and hmac.compare_digest(base64.b64decode(s[3:]), expected) for s in sig.split(" ")):
            raise WebhookVerificationError("webhook-signature does not match")
    else:
        service = _header(headers, "x-service-signature")
        if not service or not service.startswith("sha256="):
            raise WebhookVerificationError("no signature header")
        expected_hex = hmac.new(key, raw, hashlib.sha256).hexdigest()
        if not hmac.compare_digest(service[7:], expected_hex):
            raise WebhookVerificationError("X-Service-Signature does not match")
    return json.loads(raw)
