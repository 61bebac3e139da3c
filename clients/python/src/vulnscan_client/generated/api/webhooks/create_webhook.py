from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.create_webhook_body import CreateWebhookBody
from ...models.create_webhook_response_201 import CreateWebhookResponse201
from ...models.error_body import ErrorBody
from typing import cast



def _get_kwargs(
    *,
    body: CreateWebhookBody,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/webhooks",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> CreateWebhookResponse201 | ErrorBody | None:
    if response.status_code == 201:
        response_201 = CreateWebhookResponse201.from_dict(response.json())



        return response_201

    if response.status_code == 400:
        response_400 = ErrorBody.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = ErrorBody.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = ErrorBody.from_dict(response.json())



        return response_403

    if response.status_code == 422:
        response_422 = ErrorBody.from_dict(response.json())



        return response_422

    if response.status_code == 429:
        response_429 = ErrorBody.from_dict(response.json())



        return response_429

    if response.status_code == 503:
        response_503 = ErrorBody.from_dict(response.json())



        return response_503

    if response.status_code == 504:
        response_504 = ErrorBody.from_dict(response.json())



        return response_504

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[CreateWebhookResponse201 | ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: CreateWebhookBody,

) -> Response[CreateWebhookResponse201 | ErrorBody]:
    """ Create a webhook

     Webhooks (Professional and Enterprise) POST each subscribed event to your HTTPS URL.

    **Body**: `{"id": "delivery_…", "event": "<kind>", "timestamp": "<when it happened, ISO 8601>",
    "data": {…}}`.
    Optional fields and timestamps that are not set are omitted; every other field is always present.

    **Headers**: `X-Service-Event` (kind), `X-Service-Delivery` (delivery id), and with a secret
    `X-Service-Signature: sha256=<lowercase hex HMAC-SHA256 of the exact body bytes, keyed by the
    secret>`.
    The Standard Webhooks headers are sent too: `webhook-id` (delivery id), `webhook-timestamp`
    (Unix seconds of this attempt) and `webhook-signature: v1,<base64 HMAC-SHA256 of "<webhook-
    id>.<webhook-timestamp>.<body>">`,
    keyed by the secret's UTF-8 bytes: with the `standardwebhooks` libraries pass the secret as raw
    bytes
    (JavaScript: `new Webhook(secret, { format: "raw" })`).

    **Verifying** (examples/webhook-receiver in the repository does all of this):
    1. Compute the HMAC over the raw body bytes *before* parsing JSON; compare with
    `crypto.timingSafeEqual`
       (or your language's constant-time compare), never `==`. Reject a mismatch with 401.
    2. Reject stale messages: refuse a `webhook-timestamp` (or the body's `timestamp` for the event
    time) more than 5 minutes old.
    3. Be idempotent: keep the delivery ids you have processed and answer 2xx to a repeat without acting
    again.
    4. Answer any 2xx within 30 seconds; do the work after answering. Redirects are not followed.

    **Retries**: attempts at once, then 5 min, 30 min, 2 h and 8 h after the previous failure (up to 5 %
    later).
    A `Retry-After` on 429/503 moves the next attempt later (at most 8 h). After the 5th failure the
    delivery
    is `failed`. A webhook whose every attempt has failed for 3 days is set inactive, with
    `disabled_reason`;
    PATCH `active: true` re-enables it. Deliveries beyond the plan's events per hour (Professional 1000,
    Enterprise 10000) are deferred to the next hour, never dropped (`deferred_until` on the delivery).

    **Data per event kind**:

    | event | data fields |
    |---|---|
    | scan.created | scan_id (string), target (string), scan_type (string), status (string), frameworks
    (array of string), ports (string), estimated_duration_seconds (integer), created_at (timestamp),
    schedule_id (string, optional) |
    | scan.started | scan_id (string), target (string), scan_type (string), status (string), phases
    (array of string), started_at (timestamp) |
    | scan.progress | scan_id (string), target (string), status (string), progress (integer), phase
    (string), phases_completed (array of string), phases_remaining (array of string), current_tool
    (string) |
    | scan.completed | scan_id (string), target (string), status (string), duration_seconds (integer),
    findings ({total, critical, high, medium, low}), comparison ({against_scan_id, new, fixed,
    regressed, unchanged, not_covered}, optional) |
    | scan.failed | scan_id (string), target (string), status (string), error (string), phase (string),
    duration_seconds (integer) |
    | target.verification_expired | target_id (string), target (string), method (string), status
    (string), error (string), verified_at (timestamp), expired_at (timestamp) |
    | vulnerability.found | finding_id (string), title (string), severity (string), cvss_score (number),
    target (string), affected_component (string), cve_ids (array of string), scan_id (string), tool
    (string), template_id (string), cwe_ids (array of string), frameworks (array of {name, controls}),
    confidence (string) |
    | vulnerability.critical | finding_id (string), title (string), severity (string), cvss_score
    (number), target (string), affected_component (string), cve_ids (array of string), scan_id (string),
    confidence (string) |
    | vulnerability.high | finding_id (string), title (string), severity (string), cvss_score (number),
    target (string), affected_component (string), cve_ids (array of string), scan_id (string),
    confidence (string) |
    | vulnerability.status_changed | finding_id (string), title (string), severity (string), target
    (string), from (string), to (string), user (string) |
    | vulnerability.resolved | finding_id (string), title (string), severity (string), target (string),
    affected_component (string), scan_id (string), user (string), resolved_at (timestamp) |
    | finding.retested | finding_id (string), retest_id (string), title (string), severity (string),
    target (string), affected_component (string), template_id (string), verdict (string), reason
    (string), status (string), requested_by (string), requested_at (timestamp), completed_at
    (timestamp), frameworks (array of {name, controls}) |
    | finding.sla_breached | finding_id (string), title (string), severity (string), target (string),
    affected_component (string), status (string), due_date (timestamp), due_date_source (string),
    assignee (string) |
    | finding.acceptance_requested | finding_id (string), title (string), severity (string), target
    (string), justification (string), expires_at (timestamp), requested_by (string) |
    | finding.acceptance_expired | finding_id (string), title (string), severity (string), target
    (string), justification (string), expires_at (timestamp), requested_by (string) |
    | control.status_changed | control_id (string), name (string), frameworks (array of string), from
    (string), to (string), user (string) |
    | evidence.uploaded | evidence_id (string), control_id (string), name (string), content_type
    (string), size_bytes (integer), uploaded_by (string), expires_at (timestamp), source (string),
    sha256 (string), scan_id (string) |
    | evidence.expiring | evidence_id (string), control_id (string), name (string), expires_at
    (timestamp), days_remaining (integer) |
    | framework.score_changed | framework (string), name (string), previous_score (number), score
    (number) |
    | audit.request_created | audit_request_id (string), framework (string), control_ids (array of
    string), title (string), requested_by (string), due_date (timestamp) |
    | quarantine.threat_detected | evidence_id (string), control_id (string), file_name (string), sha256
    (string), threat (string), uploaded_by (string), detected_at (timestamp) |
    | user.login_failed | email (string), ip (string), user_agent (string), reason (string) |
    | user.mfa_disabled | user_id (string), email (string), ip (string), user_agent (string) |
    | webhook.test | webhook_id (string), message (string) |

    Args:
        body (CreateWebhookBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CreateWebhookResponse201 | ErrorBody]
     """


    kwargs = _get_kwargs(
        body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    body: CreateWebhookBody,

) -> CreateWebhookResponse201 | ErrorBody | None:
    """ Create a webhook

     Webhooks (Professional and Enterprise) POST each subscribed event to your HTTPS URL.

    **Body**: `{"id": "delivery_…", "event": "<kind>", "timestamp": "<when it happened, ISO 8601>",
    "data": {…}}`.
    Optional fields and timestamps that are not set are omitted; every other field is always present.

    **Headers**: `X-Service-Event` (kind), `X-Service-Delivery` (delivery id), and with a secret
    `X-Service-Signature: sha256=<lowercase hex HMAC-SHA256 of the exact body bytes, keyed by the
    secret>`.
    The Standard Webhooks headers are sent too: `webhook-id` (delivery id), `webhook-timestamp`
    (Unix seconds of this attempt) and `webhook-signature: v1,<base64 HMAC-SHA256 of "<webhook-
    id>.<webhook-timestamp>.<body>">`,
    keyed by the secret's UTF-8 bytes: with the `standardwebhooks` libraries pass the secret as raw
    bytes
    (JavaScript: `new Webhook(secret, { format: "raw" })`).

    **Verifying** (examples/webhook-receiver in the repository does all of this):
    1. Compute the HMAC over the raw body bytes *before* parsing JSON; compare with
    `crypto.timingSafeEqual`
       (or your language's constant-time compare), never `==`. Reject a mismatch with 401.
    2. Reject stale messages: refuse a `webhook-timestamp` (or the body's `timestamp` for the event
    time) more than 5 minutes old.
    3. Be idempotent: keep the delivery ids you have processed and answer 2xx to a repeat without acting
    again.
    4. Answer any 2xx within 30 seconds; do the work after answering. Redirects are not followed.

    **Retries**: attempts at once, then 5 min, 30 min, 2 h and 8 h after the previous failure (up to 5 %
    later).
    A `Retry-After` on 429/503 moves the next attempt later (at most 8 h). After the 5th failure the
    delivery
    is `failed`. A webhook whose every attempt has failed for 3 days is set inactive, with
    `disabled_reason`;
    PATCH `active: true` re-enables it. Deliveries beyond the plan's events per hour (Professional 1000,
    Enterprise 10000) are deferred to the next hour, never dropped (`deferred_until` on the delivery).

    **Data per event kind**:

    | event | data fields |
    |---|---|
    | scan.created | scan_id (string), target (string), scan_type (string), status (string), frameworks
    (array of string), ports (string), estimated_duration_seconds (integer), created_at (timestamp),
    schedule_id (string, optional) |
    | scan.started | scan_id (string), target (string), scan_type (string), status (string), phases
    (array of string), started_at (timestamp) |
    | scan.progress | scan_id (string), target (string), status (string), progress (integer), phase
    (string), phases_completed (array of string), phases_remaining (array of string), current_tool
    (string) |
    | scan.completed | scan_id (string), target (string), status (string), duration_seconds (integer),
    findings ({total, critical, high, medium, low}), comparison ({against_scan_id, new, fixed,
    regressed, unchanged, not_covered}, optional) |
    | scan.failed | scan_id (string), target (string), status (string), error (string), phase (string),
    duration_seconds (integer) |
    | target.verification_expired | target_id (string), target (string), method (string), status
    (string), error (string), verified_at (timestamp), expired_at (timestamp) |
    | vulnerability.found | finding_id (string), title (string), severity (string), cvss_score (number),
    target (string), affected_component (string), cve_ids (array of string), scan_id (string), tool
    (string), template_id (string), cwe_ids (array of string), frameworks (array of {name, controls}),
    confidence (string) |
    | vulnerability.critical | finding_id (string), title (string), severity (string), cvss_score
    (number), target (string), affected_component (string), cve_ids (array of string), scan_id (string),
    confidence (string) |
    | vulnerability.high | finding_id (string), title (string), severity (string), cvss_score (number),
    target (string), affected_component (string), cve_ids (array of string), scan_id (string),
    confidence (string) |
    | vulnerability.status_changed | finding_id (string), title (string), severity (string), target
    (string), from (string), to (string), user (string) |
    | vulnerability.resolved | finding_id (string), title (string), severity (string), target (string),
    affected_component (string), scan_id (string), user (string), resolved_at (timestamp) |
    | finding.retested | finding_id (string), retest_id (string), title (string), severity (string),
    target (string), affected_component (string), template_id (string), verdict (string), reason
    (string), status (string), requested_by (string), requested_at (timestamp), completed_at
    (timestamp), frameworks (array of {name, controls}) |
    | finding.sla_breached | finding_id (string), title (string), severity (string), target (string),
    affected_component (string), status (string), due_date (timestamp), due_date_source (string),
    assignee (string) |
    | finding.acceptance_requested | finding_id (string), title (string), severity (string), target
    (string), justification (string), expires_at (timestamp), requested_by (string) |
    | finding.acceptance_expired | finding_id (string), title (string), severity (string), target
    (string), justification (string), expires_at (timestamp), requested_by (string) |
    | control.status_changed | control_id (string), name (string), frameworks (array of string), from
    (string), to (string), user (string) |
    | evidence.uploaded | evidence_id (string), control_id (string), name (string), content_type
    (string), size_bytes (integer), uploaded_by (string), expires_at (timestamp), source (string),
    sha256 (string), scan_id (string) |
    | evidence.expiring | evidence_id (string), control_id (string), name (string), expires_at
    (timestamp), days_remaining (integer) |
    | framework.score_changed | framework (string), name (string), previous_score (number), score
    (number) |
    | audit.request_created | audit_request_id (string), framework (string), control_ids (array of
    string), title (string), requested_by (string), due_date (timestamp) |
    | quarantine.threat_detected | evidence_id (string), control_id (string), file_name (string), sha256
    (string), threat (string), uploaded_by (string), detected_at (timestamp) |
    | user.login_failed | email (string), ip (string), user_agent (string), reason (string) |
    | user.mfa_disabled | user_id (string), email (string), ip (string), user_agent (string) |
    | webhook.test | webhook_id (string), message (string) |

    Args:
        body (CreateWebhookBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CreateWebhookResponse201 | ErrorBody
     """


    return sync_detailed(
        client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: CreateWebhookBody,

) -> Response[CreateWebhookResponse201 | ErrorBody]:
    """ Create a webhook

     Webhooks (Professional and Enterprise) POST each subscribed event to your HTTPS URL.

    **Body**: `{"id": "delivery_…", "event": "<kind>", "timestamp": "<when it happened, ISO 8601>",
    "data": {…}}`.
    Optional fields and timestamps that are not set are omitted; every other field is always present.

    **Headers**: `X-Service-Event` (kind), `X-Service-Delivery` (delivery id), and with a secret
    `X-Service-Signature: sha256=<lowercase hex HMAC-SHA256 of the exact body bytes, keyed by the
    secret>`.
    The Standard Webhooks headers are sent too: `webhook-id` (delivery id), `webhook-timestamp`
    (Unix seconds of this attempt) and `webhook-signature: v1,<base64 HMAC-SHA256 of "<webhook-
    id>.<webhook-timestamp>.<body>">`,
    keyed by the secret's UTF-8 bytes: with the `standardwebhooks` libraries pass the secret as raw
    bytes
    (JavaScript: `new Webhook(secret, { format: "raw" })`).

    **Verifying** (examples/webhook-receiver in the repository does all of this):
    1. Compute the HMAC over the raw body bytes *before* parsing JSON; compare with
    `crypto.timingSafeEqual`
       (or your language's constant-time compare), never `==`. Reject a mismatch with 401.
    2. Reject stale messages: refuse a `webhook-timestamp` (or the body's `timestamp` for the event
    time) more than 5 minutes old.
    3. Be idempotent: keep the delivery ids you have processed and answer 2xx to a repeat without acting
    again.
    4. Answer any 2xx within 30 seconds; do the work after answering. Redirects are not followed.

    **Retries**: attempts at once, then 5 min, 30 min, 2 h and 8 h after the previous failure (up to 5 %
    later).
    A `Retry-After` on 429/503 moves the next attempt later (at most 8 h). After the 5th failure the
    delivery
    is `failed`. A webhook whose every attempt has failed for 3 days is set inactive, with
    `disabled_reason`;
    PATCH `active: true` re-enables it. Deliveries beyond the plan's events per hour (Professional 1000,
    Enterprise 10000) are deferred to the next hour, never dropped (`deferred_until` on the delivery).

    **Data per event kind**:

    | event | data fields |
    |---|---|
    | scan.created | scan_id (string), target (string), scan_type (string), status (string), frameworks
    (array of string), ports (string), estimated_duration_seconds (integer), created_at (timestamp),
    schedule_id (string, optional) |
    | scan.started | scan_id (string), target (string), scan_type (string), status (string), phases
    (array of string), started_at (timestamp) |
    | scan.progress | scan_id (string), target (string), status (string), progress (integer), phase
    (string), phases_completed (array of string), phases_remaining (array of string), current_tool
    (string) |
    | scan.completed | scan_id (string), target (string), status (string), duration_seconds (integer),
    findings ({total, critical, high, medium, low}), comparison ({against_scan_id, new, fixed,
    regressed, unchanged, not_covered}, optional) |
    | scan.failed | scan_id (string), target (string), status (string), error (string), phase (string),
    duration_seconds (integer) |
    | target.verification_expired | target_id (string), target (string), method (string), status
    (string), error (string), verified_at (timestamp), expired_at (timestamp) |
    | vulnerability.found | finding_id (string), title (string), severity (string), cvss_score (number),
    target (string), affected_component (string), cve_ids (array of string), scan_id (string), tool
    (string), template_id (string), cwe_ids (array of string), frameworks (array of {name, controls}),
    confidence (string) |
    | vulnerability.critical | finding_id (string), title (string), severity (string), cvss_score
    (number), target (string), affected_component (string), cve_ids (array of string), scan_id (string),
    confidence (string) |
    | vulnerability.high | finding_id (string), title (string), severity (string), cvss_score (number),
    target (string), affected_component (string), cve_ids (array of string), scan_id (string),
    confidence (string) |
    | vulnerability.status_changed | finding_id (string), title (string), severity (string), target
    (string), from (string), to (string), user (string) |
    | vulnerability.resolved | finding_id (string), title (string), severity (string), target (string),
    affected_component (string), scan_id (string), user (string), resolved_at (timestamp) |
    | finding.retested | finding_id (string), retest_id (string), title (string), severity (string),
    target (string), affected_component (string), template_id (string), verdict (string), reason
    (string), status (string), requested_by (string), requested_at (timestamp), completed_at
    (timestamp), frameworks (array of {name, controls}) |
    | finding.sla_breached | finding_id (string), title (string), severity (string), target (string),
    affected_component (string), status (string), due_date (timestamp), due_date_source (string),
    assignee (string) |
    | finding.acceptance_requested | finding_id (string), title (string), severity (string), target
    (string), justification (string), expires_at (timestamp), requested_by (string) |
    | finding.acceptance_expired | finding_id (string), title (string), severity (string), target
    (string), justification (string), expires_at (timestamp), requested_by (string) |
    | control.status_changed | control_id (string), name (string), frameworks (array of string), from
    (string), to (string), user (string) |
    | evidence.uploaded | evidence_id (string), control_id (string), name (string), content_type
    (string), size_bytes (integer), uploaded_by (string), expires_at (timestamp), source (string),
    sha256 (string), scan_id (string) |
    | evidence.expiring | evidence_id (string), control_id (string), name (string), expires_at
    (timestamp), days_remaining (integer) |
    | framework.score_changed | framework (string), name (string), previous_score (number), score
    (number) |
    | audit.request_created | audit_request_id (string), framework (string), control_ids (array of
    string), title (string), requested_by (string), due_date (timestamp) |
    | quarantine.threat_detected | evidence_id (string), control_id (string), file_name (string), sha256
    (string), threat (string), uploaded_by (string), detected_at (timestamp) |
    | user.login_failed | email (string), ip (string), user_agent (string), reason (string) |
    | user.mfa_disabled | user_id (string), email (string), ip (string), user_agent (string) |
    | webhook.test | webhook_id (string), message (string) |

    Args:
        body (CreateWebhookBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CreateWebhookResponse201 | ErrorBody]
     """


    kwargs = _get_kwargs(
        body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    body: CreateWebhookBody,

) -> CreateWebhookResponse201 | ErrorBody | None:
    """ Create a webhook

     Webhooks (Professional and Enterprise) POST each subscribed event to your HTTPS URL.

    **Body**: `{"id": "delivery_…", "event": "<kind>", "timestamp": "<when it happened, ISO 8601>",
    "data": {…}}`.
    Optional fields and timestamps that are not set are omitted; every other field is always present.

    **Headers**: `X-Service-Event` (kind), `X-Service-Delivery` (delivery id), and with a secret
    `X-Service-Signature: sha256=<lowercase hex HMAC-SHA256 of the exact body bytes, keyed by the
    secret>`.
    The Standard Webhooks headers are sent too: `webhook-id` (delivery id), `webhook-timestamp`
    (Unix seconds of this attempt) and `webhook-signature: v1,<base64 HMAC-SHA256 of "<webhook-
    id>.<webhook-timestamp>.<body>">`,
    keyed by the secret's UTF-8 bytes: with the `standardwebhooks` libraries pass the secret as raw
    bytes
    (JavaScript: `new Webhook(secret, { format: "raw" })`).

    **Verifying** (examples/webhook-receiver in the repository does all of this):
    1. Compute the HMAC over the raw body bytes *before* parsing JSON; compare with
    `crypto.timingSafeEqual`
       (or your language's constant-time compare), never `==`. Reject a mismatch with 401.
    2. Reject stale messages: refuse a `webhook-timestamp` (or the body's `timestamp` for the event
    time) more than 5 minutes old.
    3. Be idempotent: keep the delivery ids you have processed and answer 2xx to a repeat without acting
    again.
    4. Answer any 2xx within 30 seconds; do the work after answering. Redirects are not followed.

    **Retries**: attempts at once, then 5 min, 30 min, 2 h and 8 h after the previous failure (up to 5 %
    later).
    A `Retry-After` on 429/503 moves the next attempt later (at most 8 h). After the 5th failure the
    delivery
    is `failed`. A webhook whose every attempt has failed for 3 days is set inactive, with
    `disabled_reason`;
    PATCH `active: true` re-enables it. Deliveries beyond the plan's events per hour (Professional 1000,
    Enterprise 10000) are deferred to the next hour, never dropped (`deferred_until` on the delivery).

    **Data per event kind**:

    | event | data fields |
    |---|---|
    | scan.created | scan_id (string), target (string), scan_type (string), status (string), frameworks
    (array of string), ports (string), estimated_duration_seconds (integer), created_at (timestamp),
    schedule_id (string, optional) |
    | scan.started | scan_id (string), target (string), scan_type (string), status (string), phases
    (array of string), started_at (timestamp) |
    | scan.progress | scan_id (string), target (string), status (string), progress (integer), phase
    (string), phases_completed (array of string), phases_remaining (array of string), current_tool
    (string) |
    | scan.completed | scan_id (string), target (string), status (string), duration_seconds (integer),
    findings ({total, critical, high, medium, low}), comparison ({against_scan_id, new, fixed,
    regressed, unchanged, not_covered}, optional) |
    | scan.failed | scan_id (string), target (string), status (string), error (string), phase (string),
    duration_seconds (integer) |
    | target.verification_expired | target_id (string), target (string), method (string), status
    (string), error (string), verified_at (timestamp), expired_at (timestamp) |
    | vulnerability.found | finding_id (string), title (string), severity (string), cvss_score (number),
    target (string), affected_component (string), cve_ids (array of string), scan_id (string), tool
    (string), template_id (string), cwe_ids (array of string), frameworks (array of {name, controls}),
    confidence (string) |
    | vulnerability.critical | finding_id (string), title (string), severity (string), cvss_score
    (number), target (string), affected_component (string), cve_ids (array of string), scan_id (string),
    confidence (string) |
    | vulnerability.high | finding_id (string), title (string), severity (string), cvss_score (number),
    target (string), affected_component (string), cve_ids (array of string), scan_id (string),
    confidence (string) |
    | vulnerability.status_changed | finding_id (string), title (string), severity (string), target
    (string), from (string), to (string), user (string) |
    | vulnerability.resolved | finding_id (string), title (string), severity (string), target (string),
    affected_component (string), scan_id (string), user (string), resolved_at (timestamp) |
    | finding.retested | finding_id (string), retest_id (string), title (string), severity (string),
    target (string), affected_component (string), template_id (string), verdict (string), reason
    (string), status (string), requested_by (string), requested_at (timestamp), completed_at
    (timestamp), frameworks (array of {name, controls}) |
    | finding.sla_breached | finding_id (string), title (string), severity (string), target (string),
    affected_component (string), status (string), due_date (timestamp), due_date_source (string),
    assignee (string) |
    | finding.acceptance_requested | finding_id (string), title (string), severity (string), target
    (string), justification (string), expires_at (timestamp), requested_by (string) |
    | finding.acceptance_expired | finding_id (string), title (string), severity (string), target
    (string), justification (string), expires_at (timestamp), requested_by (string) |
    | control.status_changed | control_id (string), name (string), frameworks (array of string), from
    (string), to (string), user (string) |
    | evidence.uploaded | evidence_id (string), control_id (string), name (string), content_type
    (string), size_bytes (integer), uploaded_by (string), expires_at (timestamp), source (string),
    sha256 (string), scan_id (string) |
    | evidence.expiring | evidence_id (string), control_id (string), name (string), expires_at
    (timestamp), days_remaining (integer) |
    | framework.score_changed | framework (string), name (string), previous_score (number), score
    (number) |
    | audit.request_created | audit_request_id (string), framework (string), control_ids (array of
    string), title (string), requested_by (string), due_date (timestamp) |
    | quarantine.threat_detected | evidence_id (string), control_id (string), file_name (string), sha256
    (string), threat (string), uploaded_by (string), detected_at (timestamp) |
    | user.login_failed | email (string), ip (string), user_agent (string), reason (string) |
    | user.mfa_disabled | user_id (string), email (string), ip (string), user_agent (string) |
    | webhook.test | webhook_id (string), message (string) |

    Args:
        body (CreateWebhookBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CreateWebhookResponse201 | ErrorBody
     """


    return (await asyncio_detailed(
        client=client,
body=body,

    )).parsed
