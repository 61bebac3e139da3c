from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.list_controls_framework import ListControlsFramework
from ...models.list_controls_response_200 import ListControlsResponse200
from ...models.list_controls_status import ListControlsStatus
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    page: int | Unset = 1,
    per_page: int | Unset = 20,
    framework: ListControlsFramework | Unset = UNSET,
    status: ListControlsStatus | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["page"] = page

    params["per_page"] = per_page

    json_framework: str | Unset = UNSET
    if not isinstance(framework, Unset):
        json_framework = framework.value

    params["framework"] = json_framework

    json_status: str | Unset = UNSET
    if not isinstance(status, Unset):
        json_status = status.value

    params["status"] = json_status


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/controls",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | ListControlsResponse200 | None:
    if response.status_code == 200:
        response_200 = ListControlsResponse200.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | ListControlsResponse200]:
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
    framework: ListControlsFramework | Unset = UNSET,
    status: ListControlsStatus | Unset = UNSET,

) -> Response[ErrorBody | ListControlsResponse200]:
    """ List controls

     Every control of the organization's frameworks (all eight are enabled), in catalogue order. Filters
    combine with AND.

    Args:
        page (int | Unset):  Default: 1.
        per_page (int | Unset):  Default: 20.
        framework (ListControlsFramework | Unset):
        status (ListControlsStatus | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | ListControlsResponse200]
     """


    kwargs = _get_kwargs(
        page=page,
per_page=per_page,
framework=framework,
status=status,

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
    framework: ListControlsFramework | Unset = UNSET,
    status: ListControlsStatus | Unset = UNSET,

) -> ErrorBody | ListControlsResponse200 | None:
    """ List controls

     Every control of the organization's frameworks (all eight are enabled), in catalogue order. Filters
    combine with AND.

    Args:
        page (int | Unset):  Default: 1.
        per_page (int | Unset):  Default: 20.
        framework (ListControlsFramework | Unset):
        status (ListControlsStatus | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | ListControlsResponse200
     """


    return sync_detailed(
        client=client,
page=page,
per_page=per_page,
framework=framework,
status=status,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    page: int | Unset = 1,
    per_page: int | Unset = 20,
    framework: ListControlsFramework | Unset = UNSET,
    status: ListControlsStatus | Unset = UNSET,

) -> Response[ErrorBody | ListControlsResponse200]:
    """ List controls

     Every control of the organization's frameworks (all eight are enabled), in catalogue order. Filters
    combine with AND.

    Args:
        page (int | Unset):  Default: 1.
        per_page (int | Unset):  Default: 20.
        framework (ListControlsFramework | Unset):
        status (ListControlsStatus | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | ListControlsResponse200]
     """


    kwargs = _get_kwargs(
        page=page,
per_page=per_page,
framework=framework,
status=status,

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
    framework: ListControlsFramework | Unset = UNSET,
    status: ListControlsStatus | Unset = UNSET,

) -> ErrorBody | ListControlsResponse200 | None:
    """ List controls

     Every control of the organization's frameworks (all eight are enabled), in catalogue order. Filters
    combine with AND.

    Args:
        page (int | Unset):  Default: 1.
        per_page (int | Unset):  Default: 20.
        framework (ListControlsFramework | Unset):
        status (ListControlsStatus | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | ListControlsResponse200
     """


    return (await asyncio_detailed(
        client=client,
page=page,
per_page=per_page,
framework=framework,
status=status,

    )).parsed
