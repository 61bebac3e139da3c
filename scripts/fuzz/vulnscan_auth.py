"""schemathesis hooks for `npm run test:fuzz` (loaded through SCHEMATHESIS_HOOKS).

The fuzzer calls every operation, session-ending ones too: POST /api/v1/auth/logout-all and
DELETE /api/v1/auth/sessions/{id} revoke the very token it is using, after which every call
would answer 401 and test nothing. So the bearer token comes from this provider: it logs in
with the stored password (FUZZ_EMAIL / FUZZ_PASSWORD at FUZZ_BASE_URL), keeps the token for
a while, and when a call answers 401 schemathesis drops the cached token, calls `get` again
for a fresh one and replays the call once (retry_on) — so a revoked session costs one login,
and a 401 that survives a fresh token is still reported.
"""

import os

import requests
import schemathesis

BASE_URL = os.environ["FUZZ_BASE_URL"]
EMAIL = os.environ["FUZZ_EMAIL"]
PASSWORD = os.environ["FUZZ_PASSWORD"]


@schemathesis.auth(refresh_interval=240, retry_on=[401])
class FreshBearer:
    def get(self, case, context):
        response = requests.post(
            f"{BASE_URL}/api/v1/auth/token",
            data={"username": EMAIL, "password": PASSWORD},
            timeout=30,
        )
        response.raise_for_status()
        return response.json()["access_token"]

    def set(self, case, data, context):
        case.headers = case.headers or {}
        case.headers["Authorization"] = f"Bearer {data}"
