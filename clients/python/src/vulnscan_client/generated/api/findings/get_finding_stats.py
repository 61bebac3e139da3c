from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.get_finding_stats_response_200 import GetFindingStatsResponse200
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    from_date: Any | Unset = UNSET,
    to_date: Any | Unset = UNSET,
    target: str | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    json_from_date: Any | Unset
    if isinstance(from_date, Unset):
        json_from_date = UNSET
    else:
        json_from_date = from_date
    params["from_date"] = json_from_date

    json_to_date: Any | Unset
    if isinstance(to_date, Unset):
        json_to_date = UNSET
    else:
        json_to_date = to_date
    params["to_date"] = json_to_date

    params["target"] = target


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/findings/stats",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | GetFindingStatsResponse200 | None:
    if response.status_code == 200:
        response_200 = GetFindingStatsResponse200.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | GetFindingStatsResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    from_date: Any | Unset = UNSET,
    to_date: Any | Unset = UNSET,
    target: str | Unset = UNSET,

) -> Response[ErrorBody | GetFindingStatsResponse200]:
    """ Finding statistics

     `from_date`/`to_date` bound the detection time (from inclusive, to exclusive). Trends count the last
    7 days within those filters.

    Args:
        from_date (Any | Unset):
        to_date (Any | Unset):
        target (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | GetFindingStatsResponse200]
     """


    kwargs = _get_kwargs(
        from_date=from_date,
to_date=to_date,
target=target,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    from_date: Any | Unset = UNSET,
    to_date: Any | Unset = UNSET,
    target: str | Unset = UNSET,

) -> ErrorBody | GetFindingStatsResponse200 | None:
    """ Finding statistics

     `from_date`/`to_date` bound the detection time (from inclusive, to exclusive). Trends count the last
    7 days within those filters.

    Args:
        from_date (Any | Unset):
        to_date (Any | Unset):
        target (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | GetFindingStatsResponse200
     """


    return sync_detailed(
        client=client,
from_date=from_date,
to_date=to_date,
target=target,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    from_date: Any | Unset = UNSET,
    to_date: Any | Unset = UNSET,
    target: str | Unset = UNSET,

) -> Response[ErrorBody | GetFindingStatsResponse200]:
    """ Finding statistics

     `from_date`/`to_date` bound the detection time (from inclusive, to exclusive). Trends count the last
    7 days within those filters.

    Args:
        from_date (Any | Unset):
        to_date (Any | Unset):
        target (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | GetFindingStatsResponse200]
     """


    kwargs = _get_kwargs(
        from_date=from_date,
to_date=to_date,
target=target,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    from_date: Any | Unset = UNSET,
    to_date: Any | Unset = UNSET,
    target: str | Unset = UNSET,

) -> ErrorBody | GetFindingStatsResponse200 | None:
    """ Finding statistics

     `from_date`/`to_date` bound the detection time (from inclusive, to exclusive). Trends count the last
    7 days within those filters.

    Args:
        from_date (Any | Unset):
        to_date (Any | Unset):
        target (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | GetFindingStatsResponse200
     """


    return (await asyncio_detailed(
        client=client,
from_date=from_date,
to_date=to_date,
target=target,

    )).parsed
