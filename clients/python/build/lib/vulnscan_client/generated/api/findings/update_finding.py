from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.update_finding_body import UpdateFindingBody
from ...models.update_finding_response_200 import UpdateFindingResponse200
from typing import cast



def _get_kwargs(
    finding_id: str,
    *,
    body: UpdateFindingBody,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/api/v1/findings/{finding_id}".format(finding_id=quote(str(finding_id), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | UpdateFindingResponse200 | None:
    if response.status_code == 200:
        response_200 = UpdateFindingResponse200.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | UpdateFindingResponse200]:
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
    body: UpdateFindingBody,

) -> Response[ErrorBody | UpdateFindingResponse200]:
    """ Update status, assignee, priority, due date or notes

     Every change is recorded in the finding's history with your name. `null` clears assignee, priority
    or due_date (a cleared due date goes back to the organization's SLA policy; a date you set is kept
    through severity changes). `status: accepted` requires `acceptance` (expiry and justification).

    Args:
        finding_id (str):
        body (UpdateFindingBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | UpdateFindingResponse200]
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
    body: UpdateFindingBody,

) -> ErrorBody | UpdateFindingResponse200 | None:
    """ Update status, assignee, priority, due date or notes

     Every change is recorded in the finding's history with your name. `null` clears assignee, priority
    or due_date (a cleared due date goes back to the organization's SLA policy; a date you set is kept
    through severity changes). `status: accepted` requires `acceptance` (expiry and justification).

    Args:
        finding_id (str):
        body (UpdateFindingBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | UpdateFindingResponse200
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
    body: UpdateFindingBody,

) -> Response[ErrorBody | UpdateFindingResponse200]:
    """ Update status, assignee, priority, due date or notes

     Every change is recorded in the finding's history with your name. `null` clears assignee, priority
    or due_date (a cleared due date goes back to the organization's SLA policy; a date you set is kept
    through severity changes). `status: accepted` requires `acceptance` (expiry and justification).

    Args:
        finding_id (str):
        body (UpdateFindingBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | UpdateFindingResponse200]
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
    body: UpdateFindingBody,

) -> ErrorBody | UpdateFindingResponse200 | None:
    """ Update status, assignee, priority, due date or notes

     Every change is recorded in the finding's history with your name. `null` clears assignee, priority
    or due_date (a cleared due date goes back to the organization's SLA policy; a date you set is kept
    through severity changes). `status: accepted` requires `acceptance` (expiry and justification).

    Args:
        finding_id (str):
        body (UpdateFindingBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | UpdateFindingResponse200
     """


    return (await asyncio_detailed(
        finding_id=finding_id,
client=client,
body=body,

    )).parsed
