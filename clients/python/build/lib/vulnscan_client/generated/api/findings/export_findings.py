from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.export_findings_confidence import ExportFindingsConfidence
from ...models.export_findings_format import ExportFindingsFormat
from ...models.export_findings_order import ExportFindingsOrder
from ...models.export_findings_severity import ExportFindingsSeverity
from ...models.export_findings_sla_state import ExportFindingsSlaState
from ...models.export_findings_sort import ExportFindingsSort
from ...models.export_findings_status import ExportFindingsStatus
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    format_: ExportFindingsFormat | Unset = ExportFindingsFormat.CSV,
    severity: ExportFindingsSeverity | Unset = UNSET,
    status: ExportFindingsStatus | Unset = UNSET,
    scan_id: str | Unset = UNSET,
    target: str | Unset = UNSET,
    tool: str | Unset = UNSET,
    cve: str | Unset = UNSET,
    confidence: ExportFindingsConfidence | Unset = UNSET,
    sla_state: ExportFindingsSlaState | Unset = UNSET,
    due_before: Any | Unset = UNSET,
    due_after: Any | Unset = UNSET,
    accepted_expiring_within: str | Unset = UNSET,
    sort: ExportFindingsSort | Unset = ExportFindingsSort.CREATED_AT,
    order: ExportFindingsOrder | Unset = ExportFindingsOrder.DESC,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    json_format_: str | Unset = UNSET
    if not isinstance(format_, Unset):
        json_format_ = format_.value

    params["format"] = json_format_

    json_severity: str | Unset = UNSET
    if not isinstance(severity, Unset):
        json_severity = severity.value

    params["severity"] = json_severity

    json_status: str | Unset = UNSET
    if not isinstance(status, Unset):
        json_status = status.value

    params["status"] = json_status

    params["scan_id"] = scan_id

    params["target"] = target

    params["tool"] = tool

    params["cve"] = cve

    json_confidence: str | Unset = UNSET
    if not isinstance(confidence, Unset):
        json_confidence = confidence.value

    params["confidence"] = json_confidence

    json_sla_state: str | Unset = UNSET
    if not isinstance(sla_state, Unset):
        json_sla_state = sla_state.value

    params["sla_state"] = json_sla_state

    json_due_before: Any | Unset
    if isinstance(due_before, Unset):
        json_due_before = UNSET
    else:
        json_due_before = due_before
    params["due_before"] = json_due_before

    json_due_after: Any | Unset
    if isinstance(due_after, Unset):
        json_due_after = UNSET
    else:
        json_due_after = due_after
    params["due_after"] = json_due_after

    params["accepted_expiring_within"] = accepted_expiring_within

    json_sort: str | Unset = UNSET
    if not isinstance(sort, Unset):
        json_sort = sort.value

    params["sort"] = json_sort

    json_order: str | Unset = UNSET
    if not isinstance(order, Unset):
        json_order = order.value

    params["order"] = json_order


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/findings/export",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | str | None:
    if response.status_code == 200:
        response_200 = response.text
        return response_200

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | str]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    format_: ExportFindingsFormat | Unset = ExportFindingsFormat.CSV,
    severity: ExportFindingsSeverity | Unset = UNSET,
    status: ExportFindingsStatus | Unset = UNSET,
    scan_id: str | Unset = UNSET,
    target: str | Unset = UNSET,
    tool: str | Unset = UNSET,
    cve: str | Unset = UNSET,
    confidence: ExportFindingsConfidence | Unset = UNSET,
    sla_state: ExportFindingsSlaState | Unset = UNSET,
    due_before: Any | Unset = UNSET,
    due_after: Any | Unset = UNSET,
    accepted_expiring_within: str | Unset = UNSET,
    sort: ExportFindingsSort | Unset = ExportFindingsSort.CREATED_AT,
    order: ExportFindingsOrder | Unset = ExportFindingsOrder.DESC,

) -> Response[ErrorBody | str]:
    """ Export findings (CSV, JSON or PDF)

     Takes the list filters and sort. Streamed as an attachment: CSV (one row per finding, formula-like
    cells prefixed with `'`), JSON (an array of finding details), PDF (a report with summary, severity
    chart and table).

    Args:
        format_ (ExportFindingsFormat | Unset):  Default: ExportFindingsFormat.CSV.
        severity (ExportFindingsSeverity | Unset):
        status (ExportFindingsStatus | Unset):
        scan_id (str | Unset):
        target (str | Unset):
        tool (str | Unset):
        cve (str | Unset):
        confidence (ExportFindingsConfidence | Unset):
        sla_state (ExportFindingsSlaState | Unset):
        due_before (Any | Unset):
        due_after (Any | Unset):
        accepted_expiring_within (str | Unset):
        sort (ExportFindingsSort | Unset):  Default: ExportFindingsSort.CREATED_AT.
        order (ExportFindingsOrder | Unset):  Default: ExportFindingsOrder.DESC.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | str]
     """


    kwargs = _get_kwargs(
        format_=format_,
severity=severity,
status=status,
scan_id=scan_id,
target=target,
tool=tool,
cve=cve,
confidence=confidence,
sla_state=sla_state,
due_before=due_before,
due_after=due_after,
accepted_expiring_within=accepted_expiring_within,
sort=sort,
order=order,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    format_: ExportFindingsFormat | Unset = ExportFindingsFormat.CSV,
    severity: ExportFindingsSeverity | Unset = UNSET,
    status: ExportFindingsStatus | Unset = UNSET,
    scan_id: str | Unset = UNSET,
    target: str | Unset = UNSET,
    tool: str | Unset = UNSET,
    cve: str | Unset = UNSET,
    confidence: ExportFindingsConfidence | Unset = UNSET,
    sla_state: ExportFindingsSlaState | Unset = UNSET,
    due_before: Any | Unset = UNSET,
    due_after: Any | Unset = UNSET,
    accepted_expiring_within: str | Unset = UNSET,
    sort: ExportFindingsSort | Unset = ExportFindingsSort.CREATED_AT,
    order: ExportFindingsOrder | Unset = ExportFindingsOrder.DESC,

) -> ErrorBody | str | None:
    """ Export findings (CSV, JSON or PDF)

     Takes the list filters and sort. Streamed as an attachment: CSV (one row per finding, formula-like
    cells prefixed with `'`), JSON (an array of finding details), PDF (a report with summary, severity
    chart and table).

    Args:
        format_ (ExportFindingsFormat | Unset):  Default: ExportFindingsFormat.CSV.
        severity (ExportFindingsSeverity | Unset):
        status (ExportFindingsStatus | Unset):
        scan_id (str | Unset):
        target (str | Unset):
        tool (str | Unset):
        cve (str | Unset):
        confidence (ExportFindingsConfidence | Unset):
        sla_state (ExportFindingsSlaState | Unset):
        due_before (Any | Unset):
        due_after (Any | Unset):
        accepted_expiring_within (str | Unset):
        sort (ExportFindingsSort | Unset):  Default: ExportFindingsSort.CREATED_AT.
        order (ExportFindingsOrder | Unset):  Default: ExportFindingsOrder.DESC.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | str
     """


    return sync_detailed(
        client=client,
format_=format_,
severity=severity,
status=status,
scan_id=scan_id,
target=target,
tool=tool,
cve=cve,
confidence=confidence,
sla_state=sla_state,
due_before=due_before,
due_after=due_after,
accepted_expiring_within=accepted_expiring_within,
sort=sort,
order=order,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    format_: ExportFindingsFormat | Unset = ExportFindingsFormat.CSV,
    severity: ExportFindingsSeverity | Unset = UNSET,
    status: ExportFindingsStatus | Unset = UNSET,
    scan_id: str | Unset = UNSET,
    target: str | Unset = UNSET,
    tool: str | Unset = UNSET,
    cve: str | Unset = UNSET,
    confidence: ExportFindingsConfidence | Unset = UNSET,
    sla_state: ExportFindingsSlaState | Unset = UNSET,
    due_before: Any | Unset = UNSET,
    due_after: Any | Unset = UNSET,
    accepted_expiring_within: str | Unset = UNSET,
    sort: ExportFindingsSort | Unset = ExportFindingsSort.CREATED_AT,
    order: ExportFindingsOrder | Unset = ExportFindingsOrder.DESC,

) -> Response[ErrorBody | str]:
    """ Export findings (CSV, JSON or PDF)

     Takes the list filters and sort. Streamed as an attachment: CSV (one row per finding, formula-like
    cells prefixed with `'`), JSON (an array of finding details), PDF (a report with summary, severity
    chart and table).

    Args:
        format_ (ExportFindingsFormat | Unset):  Default: ExportFindingsFormat.CSV.
        severity (ExportFindingsSeverity | Unset):
        status (ExportFindingsStatus | Unset):
        scan_id (str | Unset):
        target (str | Unset):
        tool (str | Unset):
        cve (str | Unset):
        confidence (ExportFindingsConfidence | Unset):
        sla_state (ExportFindingsSlaState | Unset):
        due_before (Any | Unset):
        due_after (Any | Unset):
        accepted_expiring_within (str | Unset):
        sort (ExportFindingsSort | Unset):  Default: ExportFindingsSort.CREATED_AT.
        order (ExportFindingsOrder | Unset):  Default: ExportFindingsOrder.DESC.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | str]
     """


    kwargs = _get_kwargs(
        format_=format_,
severity=severity,
status=status,
scan_id=scan_id,
target=target,
tool=tool,
cve=cve,
confidence=confidence,
sla_state=sla_state,
due_before=due_before,
due_after=due_after,
accepted_expiring_within=accepted_expiring_within,
sort=sort,
order=order,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    format_: ExportFindingsFormat | Unset = ExportFindingsFormat.CSV,
    severity: ExportFindingsSeverity | Unset = UNSET,
    status: ExportFindingsStatus | Unset = UNSET,
    scan_id: str | Unset = UNSET,
    target: str | Unset = UNSET,
    tool: str | Unset = UNSET,
    cve: str | Unset = UNSET,
    confidence: ExportFindingsConfidence | Unset = UNSET,
    sla_state: ExportFindingsSlaState | Unset = UNSET,
    due_before: Any | Unset = UNSET,
    due_after: Any | Unset = UNSET,
    accepted_expiring_within: str | Unset = UNSET,
    sort: ExportFindingsSort | Unset = ExportFindingsSort.CREATED_AT,
    order: ExportFindingsOrder | Unset = ExportFindingsOrder.DESC,

) -> ErrorBody | str | None:
    """ Export findings (CSV, JSON or PDF)

     Takes the list filters and sort. Streamed as an attachment: CSV (one row per finding, formula-like
    cells prefixed with `'`), JSON (an array of finding details), PDF (a report with summary, severity
    chart and table).

    Args:
        format_ (ExportFindingsFormat | Unset):  Default: ExportFindingsFormat.CSV.
        severity (ExportFindingsSeverity | Unset):
        status (ExportFindingsStatus | Unset):
        scan_id (str | Unset):
        target (str | Unset):
        tool (str | Unset):
        cve (str | Unset):
        confidence (ExportFindingsConfidence | Unset):
        sla_state (ExportFindingsSlaState | Unset):
        due_before (Any | Unset):
        due_after (Any | Unset):
        accepted_expiring_within (str | Unset):
        sort (ExportFindingsSort | Unset):  Default: ExportFindingsSort.CREATED_AT.
        order (ExportFindingsOrder | Unset):  Default: ExportFindingsOrder.DESC.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | str
     """


    return (await asyncio_detailed(
        client=client,
format_=format_,
severity=severity,
status=status,
scan_id=scan_id,
target=target,
tool=tool,
cve=cve,
confidence=confidence,
sla_state=sla_state,
due_before=due_before,
due_after=due_after,
accepted_expiring_within=accepted_expiring_within,
sort=sort,
order=order,

    )).parsed
