from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.delete_target_response_200 import DeleteTargetResponse200
from ...models.error_body import ErrorBody
from typing import cast



def _get_kwargs(
    target_id: str,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/api/v1/targets/{target_id}".format(target_id=quote(str(target_id), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> DeleteTargetResponse200 | ErrorBody | None:
    if response.status_code == 200:
        response_200 = DeleteTargetResponse200.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[DeleteTargetResponse200 | ErrorBody]:
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

) -> Response[DeleteTargetResponse200 | ErrorBody]:
    """ Delete a target

     Scans it allowed are kept; later scans of what only it covered are refused.

    Args:
        target_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DeleteTargetResponse200 | ErrorBody]
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

) -> DeleteTargetResponse200 | ErrorBody | None:
    """ Delete a target

     Scans it allowed are kept; later scans of what only it covered are refused.

    Args:
        target_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DeleteTargetResponse200 | ErrorBody
     """


    return sync_detailed(
        target_id=target_id,
client=client,

    ).parsed

async def asyncio_detailed(
    target_id: str,
    *,
    client: AuthenticatedClient,

) -> Response[DeleteTargetResponse200 | ErrorBody]:
    """ Delete a target

     Scans it allowed are kept; later scans of what only it covered are refused.

    Args:
        target_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DeleteTargetResponse200 | ErrorBody]
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

) -> DeleteTargetResponse200 | ErrorBody | None:
    """ Delete a target

     Scans it allowed are kept; later scans of what only it covered are refused.

    Args:
        target_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DeleteTargetResponse200 | ErrorBody
     """


    return (await asyncio_detailed(
        target_id=target_id,
client=client,

    )).parsed
