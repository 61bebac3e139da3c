from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.get_findings_policy_response_200 import GetFindingsPolicyResponse200
from typing import cast



def _get_kwargs(
    
) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/findings/policy",
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | GetFindingsPolicyResponse200 | None:
    if response.status_code == 200:
        response_200 = GetFindingsPolicyResponse200.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | GetFindingsPolicyResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,

) -> Response[ErrorBody | GetFindingsPolicyResponse200]:
    """ Findings policy: SLA days and acceptance approval

     The organization's SLA days per severity (defaults: critical 7, high 30, medium 90, low 180, info
    none), whether risk acceptance needs a second user's approval (default: no), and whether a later
    scan that covered a finding's check and did not match resolves it (`auto_resolve`, default: no).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | GetFindingsPolicyResponse200]
     """


    kwargs = _get_kwargs(
        
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,

) -> ErrorBody | GetFindingsPolicyResponse200 | None:
    """ Findings policy: SLA days and acceptance approval

     The organization's SLA days per severity (defaults: critical 7, high 30, medium 90, low 180, info
    none), whether risk acceptance needs a second user's approval (default: no), and whether a later
    scan that covered a finding's check and did not match resolves it (`auto_resolve`, default: no).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | GetFindingsPolicyResponse200
     """


    return sync_detailed(
        client=client,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,

) -> Response[ErrorBody | GetFindingsPolicyResponse200]:
    """ Findings policy: SLA days and acceptance approval

     The organization's SLA days per severity (defaults: critical 7, high 30, medium 90, low 180, info
    none), whether risk acceptance needs a second user's approval (default: no), and whether a later
    scan that covered a finding's check and did not match resolves it (`auto_resolve`, default: no).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | GetFindingsPolicyResponse200]
     """


    kwargs = _get_kwargs(
        
    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,

) -> ErrorBody | GetFindingsPolicyResponse200 | None:
    """ Findings policy: SLA days and acceptance approval

     The organization's SLA days per severity (defaults: critical 7, high 30, medium 90, low 180, info
    none), whether risk acceptance needs a second user's approval (default: no), and whether a later
    scan that covered a finding's check and did not match resolves it (`auto_resolve`, default: no).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | GetFindingsPolicyResponse200
     """


    return (await asyncio_detailed(
        client=client,

    )).parsed
