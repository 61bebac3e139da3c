from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.diff_scan_response_200 import DiffScanResponse200
from ...models.error_body import ErrorBody
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    scan_id: str,
    *,
    against: str | Unset = UNSET,
    limit: int | Unset = 100,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["against"] = against

    params["limit"] = limit


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/scans/{scan_id}/diff".format(scan_id=quote(str(scan_id), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> DiffScanResponse200 | ErrorBody | None:
    if response.status_code == 200:
        response_200 = DiffScanResponse200.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[DiffScanResponse200 | ErrorBody]:
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
    against: str | Unset = UNSET,
    limit: int | Unset = 100,

) -> Response[DiffScanResponse200 | ErrorBody]:
    """ Compare a scan with an earlier one

     The findings of the scan compared with those of `against` (same organization and target; by default
    the latest completed scan of the target created before it). `new`: detected now, not then;
    `regressed`: detected now after having been resolved; `unchanged`: detected in both; `fixed`:
    detected then, not now, although this scan ran the same check against the same component and the
    component answered; `not_covered`: detected then, not now, and this scan did not cover the check on
    that component (`reason` says why). Nothing is ever called fixed because it was merely absent. Needs
    `read:findings`, like the scan's findings list.

    Args:
        scan_id (str):
        against (str | Unset):
        limit (int | Unset):  Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DiffScanResponse200 | ErrorBody]
     """


    kwargs = _get_kwargs(
        scan_id=scan_id,
against=against,
limit=limit,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    scan_id: str,
    *,
    client: AuthenticatedClient,
    against: str | Unset = UNSET,
    limit: int | Unset = 100,

) -> DiffScanResponse200 | ErrorBody | None:
    """ Compare a scan with an earlier one

     The findings of the scan compared with those of `against` (same organization and target; by default
    the latest completed scan of the target created before it). `new`: detected now, not then;
    `regressed`: detected now after having been resolved; `unchanged`: detected in both; `fixed`:
    detected then, not now, although this scan ran the same check against the same component and the
    component answered; `not_covered`: detected then, not now, and this scan did not cover the check on
    that component (`reason` says why). Nothing is ever called fixed because it was merely absent. Needs
    `read:findings`, like the scan's findings list.

    Args:
        scan_id (str):
        against (str | Unset):
        limit (int | Unset):  Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DiffScanResponse200 | ErrorBody
     """


    return sync_detailed(
        scan_id=scan_id,
client=client,
against=against,
limit=limit,

    ).parsed

async def asyncio_detailed(
    scan_id: str,
    *,
    client: AuthenticatedClient,
    against: str | Unset = UNSET,
    limit: int | Unset = 100,

) -> Response[DiffScanResponse200 | ErrorBody]:
    """ Compare a scan with an earlier one

     The findings of the scan compared with those of `against` (same organization and target; by default
    the latest completed scan of the target created before it). `new`: detected now, not then;
    `regressed`: detected now after having been resolved; `unchanged`: detected in both; `fixed`:
    detected then, not now, although this scan ran the same check against the same component and the
    component answered; `not_covered`: detected then, not now, and this scan did not cover the check on
    that component (`reason` says why). Nothing is ever called fixed because it was merely absent. Needs
    `read:findings`, like the scan's findings list.

    Args:
        scan_id (str):
        against (str | Unset):
        limit (int | Unset):  Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DiffScanResponse200 | ErrorBody]
     """


    kwargs = _get_kwargs(
        scan_id=scan_id,
against=against,
limit=limit,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    scan_id: str,
    *,
    client: AuthenticatedClient,
    against: str | Unset = UNSET,
    limit: int | Unset = 100,

) -> DiffScanResponse200 | ErrorBody | None:
    """ Compare a scan with an earlier one

     The findings of the scan compared with those of `against` (same organization and target; by default
    the latest completed scan of the target created before it). `new`: detected now, not then;
    `regressed`: detected now after having been resolved; `unchanged`: detected in both; `fixed`:
    detected then, not now, although this scan ran the same check against the same component and the
    component answered; `not_covered`: detected then, not now, and this scan did not cover the check on
    that component (`reason` says why). Nothing is ever called fixed because it was merely absent. Needs
    `read:findings`, like the scan's findings list.

    Args:
        scan_id (str):
        against (str | Unset):
        limit (int | Unset):  Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DiffScanResponse200 | ErrorBody
     """


    return (await asyncio_detailed(
        scan_id=scan_id,
client=client,
against=against,
limit=limit,

    )).parsed
