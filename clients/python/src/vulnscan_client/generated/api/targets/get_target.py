from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.get_target_response_200 import GetTargetResponse200
from typing import cast



def _get_kwargs(
    target_id: str,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/targets/{target_id}".format(target_id=quote(str(target_id), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | GetTargetResponse200 | None:
    if response.status_code == 200:
        response_200 = GetTargetResponse200.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | GetTargetResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    target_id: str,
    *,
    client: AuthenticatedClient,

) -> Response[ErrorBody | GetTargetResponse200]:
    """ One target with its verification, recent attempts and inventory

     The verification state (what to publish while pending; method, time and next re-check once verified;
    the reason when failed or expired), the 20 most recent attempts (who asked, when, which method, what
    was found) and the inventory: the last scan, open findings by severity, SLA breaches, and the open
    ports and services scans found with when each was first and last seen.

    Args:
        target_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | GetTargetResponse200]
     """


    kwargs = _get_kwargs(
        target_id=target_id,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    target_id: str,
    *,
    client: AuthenticatedClient,

) -> ErrorBody | GetTargetResponse200 | None:
    """ One target with its verification, recent attempts and inventory

     The verification state (what to publish while pending; method, time and next re-check once verified;
    the reason when failed or expired), the 20 most recent attempts (who asked, when, which method, what
    was found) and the inventory: the last scan, open findings by severity, SLA breaches, and the open
    ports and services scans found with when each was first and last seen.

    Args:
        target_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | GetTargetResponse200
     """


    return sync_detailed(
        target_id=target_id,
client=client,

    ).parsed

async def asyncio_detailed(
    target_id: str,
    *,
    client: AuthenticatedClient,

) -> Response[ErrorBody | GetTargetResponse200]:
    """ One target with its verification, recent attempts and inventory

     The verification state (what to publish while pending; method, time and next re-check once verified;
    the reason when failed or expired), the 20 most recent attempts (who asked, when, which method, what
    was found) and the inventory: the last scan, open findings by severity, SLA breaches, and the open
    ports and services scans found with when each was first and last seen.

    Args:
        target_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | GetTargetResponse200]
     """


    kwargs = _get_kwargs(
        target_id=target_id,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    target_id: str,
    *,
    client: AuthenticatedClient,

) -> ErrorBody | GetTargetResponse200 | None:
    """ One target with its verification, recent attempts and inventory

     The verification state (what to publish while pending; method, time and next re-check once verified;
    the reason when failed or expired), the 20 most recent attempts (who asked, when, which method, what
    was found) and the inventory: the last scan, open findings by severity, SLA breaches, and the open
    ports and services scans found with when each was first and last seen.

    Args:
        target_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | GetTargetResponse200
     """


    return (await asyncio_detailed(
        target_id=target_id,
client=client,

    )).parsed
