from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.cancel_scan_response_200 import CancelScanResponse200
from ...models.error_body import ErrorBody
from typing import cast



def _get_kwargs(
    scan_id: str,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/api/v1/scans/{scan_id}".format(scan_id=quote(str(scan_id), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> CancelScanResponse200 | ErrorBody | None:
    if response.status_code == 200:
        response_200 = CancelScanResponse200.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[CancelScanResponse200 | ErrorBody]:
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

) -> Response[CancelScanResponse200 | ErrorBody]:
    """ Cancel a pending or running scan

     Stops the scan's tools; findings written so far are kept. A finished scan answers 400 INVALID_STATE.

    Args:
        scan_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CancelScanResponse200 | ErrorBody]
     """


    kwargs = _get_kwargs(
        scan_id=scan_id,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    scan_id: str,
    *,
    client: AuthenticatedClient,

) -> CancelScanResponse200 | ErrorBody | None:
    """ Cancel a pending or running scan

     Stops the scan's tools; findings written so far are kept. A finished scan answers 400 INVALID_STATE.

    Args:
        scan_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CancelScanResponse200 | ErrorBody
     """


    return sync_detailed(
        scan_id=scan_id,
client=client,

    ).parsed

async def asyncio_detailed(
    scan_id: str,
    *,
    client: AuthenticatedClient,

) -> Response[CancelScanResponse200 | ErrorBody]:
    """ Cancel a pending or running scan

     Stops the scan's tools; findings written so far are kept. A finished scan answers 400 INVALID_STATE.

    Args:
        scan_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CancelScanResponse200 | ErrorBody]
     """


    kwargs = _get_kwargs(
        scan_id=scan_id,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    scan_id: str,
    *,
    client: AuthenticatedClient,

) -> CancelScanResponse200 | ErrorBody | None:
    """ Cancel a pending or running scan

     Stops the scan's tools; findings written so far are kept. A finished scan answers 400 INVALID_STATE.

    Args:
        scan_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CancelScanResponse200 | ErrorBody
     """


    return (await asyncio_detailed(
        scan_id=scan_id,
client=client,

    )).parsed
