"""The hand-written layer, against httpx's MockTransport (no server): retries, errors, refresh,
pagination and webhook verification. The generated calls are exercised against a real system by
the tour (examples/tour.py) in the repository's `npm test`."""

import base64
import hashlib
import hmac
import json
import pathlib
import time
import unittest

import httpx

from vulnscan_client import Vulnscan, VulnscanError, WebhookVerificationError, retry_after_seconds, verify_webhook
from vulnscan_client.generated.api.findings import list_findings
from vulnscan_client.generated.api.scans import get_scan_quota


QUOTA = {"plan": "professional", "monthly_limit": 150, "used_this_month": 37, "remaining": 113, "resets_at": "2026-12-01T00:00:00.000Z", "unlimited": False}


# A list item as the document's own example shows it (clients/openapi.json), so it has every field.
_DOC = json.loads((pathlib.Path(__file__).parent.parent.parent / "openapi.json").read_text())
LISTED_FINDING = _DOC["paths"]["/api/v1/findings"]["get"]["responses"]["200"]["content"]["application/json"]["example"]["items"][0]


def answer(status, body, headers=None):
    return httpx.Response(status, json=body, headers=headers or {})


class ClientTest(unittest.TestCase):
    def test_retries_after_429_with_retry_after_and_credentials(self):
        seen = []
        answers = [answer(429, {"detail": "slow down", "error_code": "RATE_LIMIT_EXCEEDED"}, {"retry-after": "1"}), answer(200, QUOTA)]

        def handler(request):
            seen.append(request.headers.get("x-api-key"))
            return answers.pop(0)

        vs = Vulnscan("http://api.test", api_key="key_1", transport=httpx.MockTransport(handler))
        start = time.monotonic()
        res = get_scan_quota.sync_detailed(client=vs.client)
        self.assertEqual(res.status_code, 200)
        self.assertGreaterEqual(time.monotonic() - start, 0.9)
        self.assertEqual(seen, ["key_1", "key_1"])

    def test_errors_carry_the_api_shape(self):
        body = {"detail": "bad", "error_code": "VALIDATION_ERROR", "field": "per_page", "errors": [{"field": "per_page", "detail": "bad", "error_code": "VALIDATION_ERROR"}]}
        vs = Vulnscan("http://api.test", api_key="k", transport=httpx.MockTransport(lambda r: answer(422, body, {"x-request-id": "req_1"})))
        with self.assertRaises(VulnscanError) as caught:
            vs.call(list_findings, per_page=1000)
        err = caught.exception
        self.assertEqual((err.status, err.error_code, err.field, len(err.errors), err.request_id), (422, "VALIDATION_ERROR", "per_page", 1, "req_1"))

    def test_sign_in_then_refresh_before_expiry(self):
        seen = []

        def handler(request):
            seen.append((request.url.path, request.headers.get("authorization")))
            if request.url.path == "/api/v1/auth/token":
                self.assertEqual(request.content, b"username=a%40example.test&password=pw&mfa_code=123456")
                return answer(200, {"access_token": "t1", "token_type": "bearer", "expires_in": 30})
            if request.url.path == "/api/v1/auth/refresh":
                return answer(200, {"access_token": "t2", "token_type": "bearer", "expires_in": 3600})
            return answer(200, QUOTA)

        vs = Vulnscan.sign_in("http://api.test", "a@example.test", "pw", mfa_code="123456", transport=httpx.MockTransport(handler))
        get_scan_quota.sync_detailed(client=vs.client)
        self.assertEqual(seen, [("/api/v1/auth/token", None), ("/api/v1/auth/refresh", "Bearer t1"), ("/api/v1/scans/quota", "Bearer t2")])
        self.assertEqual(vs.access_token, "t2")

    def test_paginate_follows_the_cursor_then_pages(self):
        item = lambda i: {**LISTED_FINDING, "id": f"finding_{i}"}
        pages = [
            {"items": [item(1), item(2)], "total": 5, "page": 1, "per_page": 2, "pages": 3, "next_cursor": "c2"},
            {"items": [item(3), item(4)], "total": 5, "page": 2, "per_page": 2, "pages": 3, "next_cursor": None},
            {"items": [item(5)], "total": 5, "page": 3, "per_page": 2, "pages": 3, "next_cursor": None},
        ]
        asked = []

        def handler(request):
            asked.append(dict(request.url.params))
            return answer(200, pages.pop(0))

        vs = Vulnscan("http://api.test", api_key="k", transport=httpx.MockTransport(handler))
        ids = [f.id for f in vs.paginate(list_findings, per_page=2)]
        self.assertEqual(ids, [f"finding_{i}" for i in range(1, 6)])
        self.assertEqual([a.get("cursor") or a.get("page") for a in asked], ["1", "c2", "3"])

    def test_retry_after_seconds(self):
        self.assertEqual(retry_after_seconds("7"), 7.0)
        self.assertEqual(retry_after_seconds("Tue, 01 Jan 2030 00:00:30 GMT", now=1893456000.0), 30.0)
        self.assertIsNone(retry_after_seconds("soon"))


class WebhookTest(unittest.TestCase):
    secret = "whsec-test"
    body = json.dumps({"id": "delivery_1", "event": "scan.completed", "timestamp": "x", "data": {}}).encode()
    now = 1_800_000_000

    def standard(self, body, ts):
        sig = base64.b64encode(hmac.new(self.secret.encode(), f"delivery_1.{ts}.".encode() + body, hashlib.sha256).digest()).decode()
        return {"webhook-id": "delivery_1", "webhook-timestamp": str(ts), "webhook-signature": f"v1,{sig}"}

    def test_both_schemes_and_refusals(self):
        self.assertEqual(verify_webhook(self.body, self.standard(self.body, self.now), self.secret, now=self.now)["id"], "delivery_1")
        service = {"X-Service-Signature": "sha256=" + hmac.new(self.secret.encode(), self.body, hashlib.sha256).hexdigest()}
        self.assertEqual(verify_webhook(self.body, service, self.secret, now=self.now)["event"], "scan.completed")
        for body, headers, secret in [
            (self.body + b" ", self.standard(self.body, self.now), self.secret),
            (self.body, self.standard(self.body, self.now - 600), self.secret),
            (self.body, service, "other"),
            (self.body, {}, self.secret),
        ]:
            with self.assertRaises(WebhookVerificationError):
                verify_webhook(body, headers, secret, now=self.now)


if __name__ == "__main__":
    unittest.main()
