from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.list_findings_confidence import ListFindingsConfidence
from ...models.list_findings_order import ListFindingsOrder
from ...models.list_findings_response_200 import ListFindingsResponse200
from ...models.list_findings_severity import ListFindingsSeverity
from ...models.list_findings_sla_state import ListFindingsSlaState
from ...models.list_findings_sort import ListFindingsSort
from ...models.list_findings_status import ListFindingsStatus
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    page: int | Unset = 1,
    per_page: int | Unset = 20,
    severity: ListFindingsSeverity | Unset = UNSET,
    status: ListFindingsStatus | Unset = UNSET,
    scan_id: str | Unset = UNSET,
    target: str | Unset = UNSET,
    tool: str | Unset = UNSET,
    cve: str | Unset = UNSET,
    search: str | Unset = UNSET,
    confidence: ListFindingsConfidence | Unset = UNSET,
    sla_state: ListFindingsSlaState | Unset = UNSET,
    due_before: Any | Unset = UNSET,
    due_after: Any | Unset = UNSET,
    accepted_expiring_within: str | Unset = UNSET,
    sort: ListFindingsSort | Unset = ListFindingsSort.CREATED_AT,
    order: ListFindingsOrder | Unset = ListFindingsOrder.DESC,
    cursor: str | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["page"] = page

    params["per_page"] = per_page

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

    params["search"] = search

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

    params["cursor"] = cursor


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/findings",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | ListFindingsResponse200 | None:
    if response.status_code == 200:
        response_200 = ListFindingsResponse200.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | ListFindingsResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    page: int | Unset = 1,
    per_page: int | Unset = 20,
    severity: ListFindingsSeverity | Unset = UNSET,
    status: ListFindingsStatus | Unset = UNSET,
    scan_id: str | Unset = UNSET,
    target: str | Unset = UNSET,
    tool: str | Unset = UNSET,
    cve: str | Unset = UNSET,
    search: str | Unset = UNSET,
    confidence: ListFindingsConfidence | Unset = UNSET,
    sla_state: ListFindingsSlaState | Unset = UNSET,
    due_before: Any | Unset = UNSET,
    due_after: Any | Unset = UNSET,
    accepted_expiring_within: str | Unset = UNSET,
    sort: ListFindingsSort | Unset = ListFindingsSort.CREATED_AT,
    order: ListFindingsOrder | Unset = ListFindingsOrder.DESC,
    cursor: str | Unset = UNSET,

) -> Response[ErrorBody | ListFindingsResponse200]:
    """ List findings

     Filters combine with AND. `search` finds findings whose title, affected component, CVE ids or
    template id contain every word given (`search=redis auth`), through an index.
    `sort=severity&order=desc` puts critical first; ties are newest first. For deep pages pass `cursor`
    (the previous page's `next_cursor`, with the same filters and sort) instead of `page`: the page then
    continues after the previous one without skipping rows, and `page` in the answer counts on from it.

    Args:
        page (int | Unset):  Default: 1.
        per_page (int | Unset):  Default: 20.
        severity (ListFindingsSeverity | Unset):
        status (ListFindingsStatus | Unset):
        scan_id (str | Unset):
        target (str | Unset):
        tool (str | Unset):
        cve (str | Unset):
        search (str | Unset):
        confidence (ListFindingsConfidence | Unset):
        sla_state (ListFindingsSlaState | Unset):
        due_before (Any | Unset):
        due_after (Any | Unset):
        accepted_expiring_within (str | Unset):
        sort (ListFindingsSort | Unset):  Default: ListFindingsSort.CREATED_AT.
        order (ListFindingsOrder | Unset):  Default: ListFindingsOrder.DESC.
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | ListFindingsResponse200]
     """


    kwargs = _get_kwargs(
        page=page,
per_page=per_page,
severity=severity,
status=status,
scan_id=scan_id,
target=target,
tool=tool,
cve=cve,
search=search,
confidence=confidence,
sla_state=sla_state,
due_before=due_before,
due_after=due_after,
accepted_expiring_within=accepted_expiring_within,
sort=sort,
order=order,
cursor=cursor,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    page: int | Unset = 1,
    per_page: int | Unset = 20,
    severity: ListFindingsSeverity | Unset = UNSET,
    status: ListFindingsStatus | Unset = UNSET,
    scan_id: str | Unset = UNSET,
    target: str | Unset = UNSET,
    tool: str | Unset = UNSET,
    cve: str | Unset = UNSET,
    search: str | Unset = UNSET,
    confidence: ListFindingsConfidence | Unset = UNSET,
    sla_state: ListFindingsSlaState | Unset = UNSET,
    due_before: Any | Unset = UNSET,
    due_after: Any | Unset = UNSET,
    accepted_expiring_within: str | Unset = UNSET,
    sort: ListFindingsSort | Unset = ListFindingsSort.CREATED_AT,
    order: ListFindingsOrder | Unset = ListFindingsOrder.DESC,
    cursor: str | Unset = UNSET,

) -> ErrorBody | ListFindingsResponse200 | None:
    """ List findings

     Filters combine with AND. `search` finds findings whose title, affected component, CVE ids or
    template id contain every word given (`search=redis auth`), through an index.
    `sort=severity&order=desc` puts critical first; ties are newest first. For deep pages pass `cursor`
    (the previous page's `next_cursor`, with the same filters and sort) instead of `page`: the page then
    continues after the previous one without skipping rows, and `page` in the answer counts on from it.

    Args:
        page (int | Unset):  Default: 1.
        per_page (int | Unset):  Default: 20.
        severity (ListFindingsSeverity | Unset):
        status (ListFindingsStatus | Unset):
        scan_id (str | Unset):
        target (str | Unset):
        tool (str | Unset):
        cve (str | Unset):
        search (str | Unset):
        confidence (ListFindingsConfidence | Unset):
        sla_state (ListFindingsSlaState | Unset):
        due_before (Any | Unset):
        due_after (Any | Unset):
        accepted_expiring_within (str | Unset):
        sort (ListFindingsSort | Unset):  Default: ListFindingsSort.CREATED_AT.
        order (ListFindingsOrder | Unset):  Default: ListFindingsOrder.DESC.
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | ListFindingsResponse200
     """


    return sync_detailed(
        client=client,
page=page,
per_page=per_page,
severity=severity,
status=status,
scan_id=scan_id,
target=target,
tool=tool,
cve=cve,
search=search,
confidence=confidence,
sla_state=sla_state,
due_before=due_before,
due_after=due_after,
accepted_expiring_within=accepted_expiring_within,
sort=sort,
order=order,
cursor=cursor,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    page: int | Unset = 1,
    per_page: int | Unset = 20,
    severity: ListFindingsSeverity | Unset = UNSET,
    status: ListFindingsStatus | Unset = UNSET,
    scan_id: str | Unset = UNSET,
    target: str | Unset = UNSET,
    tool: str | Unset = UNSET,
    cve: str | Unset = UNSET,
    search: str | Unset = UNSET,
    confidence: ListFindingsConfidence | Unset = UNSET,
    sla_state: ListFindingsSlaState | Unset = UNSET,
    due_before: Any | Unset = UNSET,
    due_after: Any | Unset = UNSET,
    accepted_expiring_within: str | Unset = UNSET,
    sort: ListFindingsSort | Unset = ListFindingsSort.CREATED_AT,
    order: ListFindingsOrder | Unset = ListFindingsOrder.DESC,
    cursor: str | Unset = UNSET,

) -> Response[ErrorBody | ListFindingsResponse200]:
    """ List findings

     Filters combine with AND. `search` finds findings whose title, affected component, CVE ids or
    template id contain every word given (`search=redis auth`), through an index.
    `sort=severity&order=desc` puts critical first; ties are newest first. For deep pages pass `cursor`
    (the previous page's `next_cursor`, with the same filters and sort) instead of `page`: the page then
    continues after the previous one without skipping rows, and `page` in the answer counts on from it.

    Args:
        page (int | Unset):  Default: 1.
        per_page (int | Unset):  Default: 20.
        severity (ListFindingsSeverity | Unset):
        status (ListFindingsStatus | Unset):
        scan_id (str | Unset):
        target (str | Unset):
        tool (str | Unset):
        cve (str | Unset):
        search (str | Unset):
        confidence (ListFindingsConfidence | Unset):
        sla_state (ListFindingsSlaState | Unset):
        due_before (Any | Unset):
        due_after (Any | Unset):
        accepted_expiring_within (str | Unset):
        sort (ListFindingsSort | Unset):  Default: ListFindingsSort.CREATED_AT.
        order (ListFindingsOrder | Unset):  Default: ListFindingsOrder.DESC.
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | ListFindingsResponse200]
     """


    kwargs = _get_kwargs(
        page=page,
per_page=per_page,
severity=severity,
status=status,
scan_id=scan_id,
target=target,
tool=tool,
cve=cve,
search=search,
confidence=confidence,
sla_state=sla_state,
due_before=due_before,
due_after=due_after,
accepted_expiring_within=accepted_expiring_within,
sort=sort,
order=order,
cursor=cursor,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    page: int | Unset = 1,
    per_page: int | Unset = 20,
    severity: ListFindingsSeverity | Unset = UNSET,
    status: ListFindingsStatus | Unset = UNSET,
    scan_id: str | Unset = UNSET,
    target: str | Unset = UNSET,
    tool: str | Unset = UNSET,
    cve: str | Unset = UNSET,
    search: str | Unset = UNSET,
    confidence: ListFindingsConfidence | Unset = UNSET,
    sla_state: ListFindingsSlaState | Unset = UNSET,
    due_before: Any | Unset = UNSET,
    due_after: Any | Unset = UNSET,
    accepted_expiring_within: str | Unset = UNSET,
    sort: ListFindingsSort | Unset = ListFindingsSort.CREATED_AT,
    order: ListFindingsOrder | Unset = ListFindingsOrder.DESC,
    cursor: str | Unset = UNSET,

) -> ErrorBody | ListFindingsResponse200 | None:
    """ List findings

     Filters combine with AND. `search` finds findings whose title, affected component, CVE ids or
    template id contain every word given (`search=redis auth`), through an index.
    `sort=severity&order=desc` puts critical first; ties are newest first. For deep pages pass `cursor`
    (the previous page's `next_cursor`, with the same filters and sort) instead of `page`: the page then
    continues after the previous one without skipping rows, and `page` in the answer counts on from it.

    Args:
        page (int | Unset):  Default: 1.
        per_page (int | Unset):  Default: 20.
        severity (ListFindingsSeverity | Unset):
        status (ListFindingsStatus | Unset):
        scan_id (str | Unset):
        target (str | Unset):
        tool (str | Unset):
        cve (str | Unset):
        search (str | Unset):
        confidence (ListFindingsConfidence | Unset):
        sla_state (ListFindingsSlaState | Unset):
        due_before (Any | Unset):
        due_after (Any | Unset):
        accepted_expiring_within (str | Unset):
        sort (ListFindingsSort | Unset):  Default: ListFindingsSort.CREATED_AT.
        order (ListFindingsOrder | Unset):  Default: ListFindingsOrder.DESC.
        cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | ListFindingsResponse200
     """


    return (await asyncio_detailed(
        client=client,
page=page,
per_page=per_page,
severity=severity,
status=status,
scan_id=scan_id,
target=target,
tool=tool,
cve=cve,
search=search,
confidence=confidence,
sla_state=sla_state,
due_before=due_before,
due_after=due_after,
accepted_expiring_within=accepted_expiring_within,
sort=sort,
order=order,
cursor=cursor,

    )).parsed
