from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.add_finding_comment_body import AddFindingCommentBody
from ...models.add_finding_comment_response_201 import AddFindingCommentResponse201
from ...models.error_body import ErrorBody
from typing import cast



def _get_kwargs(
    finding_id: str,
    *,
    body: AddFindingCommentBody,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/findings/{finding_id}/comments".format(finding_id=quote(str(finding_id), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> AddFindingCommentResponse201 | ErrorBody | None:
    if response.status_code == 201:
        response_201 = AddFindingCommentResponse201.from_dict(response.json())



        return response_201

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[AddFindingCommentResponse201 | ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    finding_id: str,
    *,
    client: AuthenticatedClient,
    body: AddFindingCommentBody,

) -> Response[AddFindingCommentResponse201 | ErrorBody]:
    """ Add a comment

     Adds a comment in your name (the API key's name for keys) and records it in the finding's history.

    Args:
        finding_id (str):
        body (AddFindingCommentBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AddFindingCommentResponse201 | ErrorBody]
     """


    kwargs = _get_kwargs(
        finding_id=finding_id,
body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    finding_id: str,
    *,
    client: AuthenticatedClient,
    body: AddFindingCommentBody,

) -> AddFindingCommentResponse201 | ErrorBody | None:
    """ Add a comment

     Adds a comment in your name (the API key's name for keys) and records it in the finding's history.

    Args:
        finding_id (str):
        body (AddFindingCommentBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AddFindingCommentResponse201 | ErrorBody
     """


    return sync_detailed(
        finding_id=finding_id,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    finding_id: str,
    *,
    client: AuthenticatedClient,
    body: AddFindingCommentBody,

) -> Response[AddFindingCommentResponse201 | ErrorBody]:
    """ Add a comment

     Adds a comment in your name (the API key's name for keys) and records it in the finding's history.

    Args:
        finding_id (str):
        body (AddFindingCommentBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AddFindingCommentResponse201 | ErrorBody]
     """


    kwargs = _get_kwargs(
        finding_id=finding_id,
body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    finding_id: str,
    *,
    client: AuthenticatedClient,
    body: AddFindingCommentBody,

) -> AddFindingCommentResponse201 | ErrorBody | None:
    """ Add a comment

     Adds a comment in your name (the API key's name for keys) and records it in the finding's history.

    Args:
        finding_id (str):
        body (AddFindingCommentBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AddFindingCommentResponse201 | ErrorBody
     """


    return (await asyncio_detailed(
        finding_id=finding_id,
client=client,
body=body,

    )).parsed
