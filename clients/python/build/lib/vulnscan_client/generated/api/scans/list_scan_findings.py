from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.list_scan_findings_response_200 import ListScanFindingsResponse200
from ...models.list_scan_findings_severity import ListScanFindingsSeverity
from ...models.list_scan_findings_status import ListScanFindingsStatus
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    scan_id: str,
    *,
    severity: ListScanFindingsSeverity | Unset = UNSET,
    status: ListScanFindingsStatus | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    json_severity: str | Unset = UNSET
    if not isinstance(severity, Unset):
        json_severity = severity.value

    params["severity"] = json_severity

    json_status: str | Unset = UNSET
    if not isinstance(status, Unset):
        json_status = status.value

    params["status"] = json_status


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/scans/{scan_id}/findings".format(scan_id=quote(str(scan_id), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | ListScanFindingsResponse200 | None:
    if response.status_code == 200:
        response_200 = ListScanFindingsResponse200.from_dict(response.json())



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

    if response.status_code == 404:
        response_404 = ErrorBody.from_dict(response.json())



        return response_404

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | ListScanFindingsResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    scan_id: str,
    *,
    client: AuthenticatedClient,
    severity: ListScanFindingsSeverity | Unset = UNSET,
    status: ListScanFindingsStatus | Unset = UNSET,

) -> Response[ErrorBody | ListScanFindingsResponse200]:
    """ Findings of one scan

     Every finding the scan detected (including ones first found by an earlier scan), in detection order.

    Args:
        scan_id (str):
        severity (ListScanFindingsSeverity | Unset):
        status (ListScanFindingsStatus | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | ListScanFindingsResponse200]
     """


    kwargs = _get_kwargs(
        scan_id=scan_id,
severity=severity,
status=status,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    scan_id: str,
    *,
    client: AuthenticatedClient,
    severity: ListScanFindingsSeverity | Unset = UNSET,
    status: ListScanFindingsStatus | Unset = UNSET,

) -> ErrorBody | ListScanFindingsResponse200 | None:
    """ Findings of one scan

     Every finding the scan detected (including ones first found by an earlier scan), in detection order.

    Args:
        scan_id (str):
        severity (ListScanFindingsSeverity | Unset):
        status (ListScanFindingsStatus | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | ListScanFindingsResponse200
     """


    return sync_detailed(
        scan_id=scan_id,
client=client,
severity=severity,
status=status,

    ).parsed

async def asyncio_detailed(
    scan_id: str,
    *,
    client: AuthenticatedClient,
    severity: ListScanFindingsSeverity | Unset = UNSET,
    status: ListScanFindingsStatus | Unset = UNSET,

) -> Response[ErrorBody | ListScanFindingsResponse200]:
    """ Findings of one scan

     Every finding the scan detected (including ones first found by an earlier scan), in detection order.

    Args:
        scan_id (str):
        severity (ListScanFindingsSeverity | Unset):
        status (ListScanFindingsStatus | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | ListScanFindingsResponse200]
     """


    kwargs = _get_kwargs(
        scan_id=scan_id,
severity=severity,
status=status,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    scan_id: str,
    *,
    client: AuthenticatedClient,
    severity: ListScanFindingsSeverity | Unset = UNSET,
    status: ListScanFindingsStatus | Unset = UNSET,

) -> ErrorBody | ListScanFindingsResponse200 | None:
    """ Findings of one scan

     Every finding the scan detected (including ones first found by an earlier scan), in detection order.

    Args:
        scan_id (str):
        severity (ListScanFindingsSeverity | Unset):
        status (ListScanFindingsStatus | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | ListScanFindingsResponse200
     """


    return (await asyncio_detailed(
        scan_id=scan_id,
client=client,
severity=severity,
status=status,

    )).parsed
