"""The hand-written part of the library around the generated calls (``generated``, never edited)."""

from __future__ import annotations

import threading
import time
from email.utils import parsedate_to_datetime
from typing import Any, Callable, Iterator, Optional

import httpx

from .generated.client import AuthenticatedClient
from .generated.types import Unset

#: Refresh this long before the token expires.
REFRESH_MARGIN_SECONDS = 60.0


class VulnscanError(Exception):
    """An answer outside 2xx, in the API's error shape (``detail``, ``error_code``, ``field``, ``errors``)."""

    def __init__(self, status: int, error_code: str, detail: str, field: Optional[str], errors: list, request_id: Optional[str]):
        super().__init__(f"{status} {error_code}: {detail}" + (f" ({field})" if field else ""))
        self.status = status
        self.error_code = error_code
        self.detail = detail
        self.field = field
        self.errors = errors
        self.request_id = request_id

    @classmethod
    def from_response(cls, status: int, content: bytes, headers: Any) -> "VulnscanError":
        import json

        try:
            body = json.loads(content) if content else {}
        except ValueError:
            body = {}
        if not isinstance(body, dict):
            body = {}
        return cls(
            status,
            body.get("error_code") or f"HTTP_{status}",
            body.get("detail") or "",
            body.get("field"),
            body.get("errors") or [],
            headers.get("x-request-id"),
        )


def retry_after_seconds(value: Optional[str], now: Optional[float] = None) -> Optional[float]:
    """Seconds to wait from a ``Retry-After`` value (delay-seconds or an HTTP date); None when absent or unreadable."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        at = parsedate_to_datetime(value).timestamp()
    except (TypeError, ValueError):
        return None
    return max(0.0, at - (time.time() if now is None else now))


class _RetryTransport(httpx.BaseTransport):
    """Sends a request again after a 429 or 503 once its ``Retry-After`` has passed."""

    def __init__(self, inner: httpx.BaseTransport, max_retries: int, max_wait: float):
        self._inner = inner
        self._max_retries = max_retries
        self._max_wait = max_wait

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        attempt = 0
        while True:
            response = self._inner.handle_request(request)
            if response.status_code not in (429, 503) or attempt >= self._max_retries:
                return response
            wait = retry_after_seconds(response.headers.get("retry-after"))
            wait = 2.0**attempt if wait is None else wait
            if wait > self._max_wait:
                return response
            response.close()
            time.sleep(wait)
            attempt += 1

    def close(self) -> None:
        self._inner.close()


class _Credentials(httpx.Auth):
    """An API key, or a bearer token refreshed (same session) before it expires."""

    requires_response_body = True

    def __init__(self, api_key: Optional[str] = None, token: Optional[str] = None, expires_at: float = float("inf")):
        self.api_key = api_key
        self.token = token
        self.expires_at = expires_at
        self._lock = threading.Lock()

    def keep(self, answer: dict) -> None:
        self.token = answer["access_token"]
        self.expires_at = time.time() + float(answer["expires_in"])

    def auth_flow(self, request: httpx.Request):
        if self.api_key:
            request.headers["X-API-Key"] = self.api_key
            yield request
            return
        if self.token and request.url.path != "/api/v1/auth/refresh" and self.expires_at - time.time() < REFRESH_MARGIN_SECONDS:
            with self._lock:
                if self.expires_at - time.time() < REFRESH_MARGIN_SECONDS:
                    refreshed = yield httpx.Request(
                        "POST", request.url.copy_with(path="/api/v1/auth/refresh", query=None), headers={"Authorization": f"Bearer {self.token}"}
                    )
                    if refreshed.status_code != 200:
                        raise VulnscanError.from_response(refreshed.status_code, refreshed.content, refreshed.headers)
                    self.keep(refreshed.json())
        if self.token:
            request.headers["Authorization"] = f"Bearer {self.token}"
        yield request


class Vulnscan:
    """The vulnscan API.

    Pass ``client`` to the generated calls, or let ``call`` and ``paginate`` do it::

        from vulnscan_client import Vulnscan
        from vulnscan_client.generated.api.findings import list_findings
        vs = Vulnscan.sign_in("https://vulnscan.example.com", "me@example.com", "…")
        for finding in vs.paginate(list_findings, severity=ListFindingsSeverity.HIGH):
            print(finding.id, finding.title)
    """

    def __init__(
        self,
        base_url: str,
        *,
        api_key: Optional[str] = None,
        access_token: Optional[str] = None,
        max_retries: int = 3,
        max_retry_after: float = 60.0,
        timeout: float = 30.0,
        verify: Any = True,
        transport: Optional[httpx.BaseTransport] = None,
    ):
        self._credentials = _Credentials(api_key=api_key, token=access_token)
        transport = _RetryTransport(transport or httpx.HTTPTransport(verify=verify), max_retries, max_retry_after)
        http = httpx.Client(base_url=base_url, auth=self._credentials, transport=transport, timeout=timeout)
        # The generated calls ask for an AuthenticatedClient; the credentials live in the httpx client's auth.
        self.client = AuthenticatedClient(base_url=base_url, token="").set_httpx_client(http)

    @classmethod
    def sign_in(cls, base_url: str, email: str, password: str, mfa_code: Optional[str] = None, **options: Any) -> "Vulnscan":
        """Signs in with an email and password (and the MFA or a recovery code); the token is kept fresh by itself."""
        vs = cls(base_url, **options)
        form = {"username": email, "password": password}
        if mfa_code:
            form["mfa_code"] = mfa_code
        res = vs.client.get_httpx_client().post("/api/v1/auth/token", data=form)
        if res.status_code != 200:
            raise VulnscanError.from_response(res.status_code, res.content, res.headers)
        vs._credentials.keep(res.json())
        return vs

    @property
    def access_token(self) -> Optional[str]:
        return self._credentials.token

    def refresh(self) -> None:
        """Exchanges the current token for a new one of the same session (done by itself before expiry)."""
        res = self.client.get_httpx_client().post("/api/v1/auth/refresh")
        if res.status_code != 200:
            raise VulnscanError.from_response(res.status_code, res.content, res.headers)
        self._credentials.keep(res.json())

    def call(self, operation: Any, **kwargs: Any) -> Any:
        """Runs a generated operation module's ``sync_detailed`` and returns the parsed 2xx body, or raises ``VulnscanError``."""
        res = operation.sync_detailed(client=self.client, **kwargs)
        status = int(res.status_code)
        if 200 <= status < 300:
            return res.parsed
        raise VulnscanError.from_response(status, res.content, res.headers)

    def paginate(self, operation: Any, **kwargs: Any) -> Iterator[Any]:
        """Every item of a list, page after page: follows ``next_cursor`` when the list gives one, otherwise ``page`` up to ``pages``."""
        query: dict = {}
        while True:
            body = self.call(operation, **kwargs, **query)
            yield from body.items
            cursor = getattr(body, "next_cursor", None)
            if cursor and not isinstance(cursor, Unset):
                query = {"cursor": cursor}
            elif body.page < body.pages and body.items:
                query = {"page": body.page + 1}
            else:
                return

    def close(self) -> None:
        self.client.get_httpx_client().close()

    def __enter__(self) -> "Vulnscan":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


#: What ``call`` accepts: a module of ``vulnscan_client.api`` with ``sync_detailed``.
Operation = Callable[..., Any]
