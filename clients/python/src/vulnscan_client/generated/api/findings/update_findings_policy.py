from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.update_findings_policy_body import UpdateFindingsPolicyBody
from ...models.update_findings_policy_response_200 import UpdateFindingsPolicyResponse200
from typing import cast



def _get_kwargs(
    *,
    body: UpdateFindingsPolicyBody,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/api/v1/findings/policy",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | UpdateFindingsPolicyResponse200 | None:
    if response.status_code == 200:
        response_200 = UpdateFindingsPolicyResponse200.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | UpdateFindingsPolicyResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: UpdateFindingsPolicyBody,

) -> Response[ErrorBody | UpdateFindingsPolicyResponse200]:
    """ Replace the findings policy

     Every open and in-progress finding whose due date comes from the policy gets the new deadline; dates
    people set are kept. CISA KEV findings take the critical deadline, or KEV's own due date when
    earlier. The first 200 open findings are refreshed before the answer (`refreshed` counts the due
    dates moved), so a small organization sees `refresh_state: done`; the rest follow in the background
    while `refresh_state` is `running` (GET shows the progress). Saving again restarts the refresh with
    the newer policy.

    Args:
        body (UpdateFindingsPolicyBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | UpdateFindingsPolicyResponse200]
     """


    kwargs = _get_kwargs(
        body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    body: UpdateFindingsPolicyBody,

) -> ErrorBody | UpdateFindingsPolicyResponse200 | None:
    """ Replace the findings policy

     Every open and in-progress finding whose due date comes from the policy gets the new deadline; dates
    people set are kept. CISA KEV findings take the critical deadline, or KEV's own due date when
    earlier. The first 200 open findings are refreshed before the answer (`refreshed` counts the due
    dates moved), so a small organization sees `refresh_state: done`; the rest follow in the background
    while `refresh_state` is `running` (GET shows the progress). Saving again restarts the refresh with
    the newer policy.

    Args:
        body (UpdateFindingsPolicyBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | UpdateFindingsPolicyResponse200
     """


    return sync_detailed(
        client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: UpdateFindingsPolicyBody,

) -> Response[ErrorBody | UpdateFindingsPolicyResponse200]:
    """ Replace the findings policy

     Every open and in-progress finding whose due date comes from the policy gets the new deadline; dates
    people set are kept. CISA KEV findings take the critical deadline, or KEV's own due date when
    earlier. The first 200 open findings are refreshed before the answer (`refreshed` counts the due
    dates moved), so a small organization sees `refresh_state: done`; the rest follow in the background
    while `refresh_state` is `running` (GET shows the progress). Saving again restarts the refresh with
    the newer policy.

    Args:
        body (UpdateFindingsPolicyBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | UpdateFindingsPolicyResponse200]
     """


    kwargs = _get_kwargs(
        body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    body: UpdateFindingsPolicyBody,

) -> ErrorBody | UpdateFindingsPolicyResponse200 | None:
    """ Replace the findings policy

     Every open and in-progress finding whose due date comes from the policy gets the new deadline; dates
    people set are kept. CISA KEV findings take the critical deadline, or KEV's own due date when
    earlier. The first 200 open findings are refreshed before the answer (`refreshed` counts the due
    dates moved), so a small organization sees `refresh_state: done`; the rest follow in the background
    while `refresh_state` is `running` (GET shows the progress). Saving again restarts the refresh with
    the newer policy.

    Args:
        body (UpdateFindingsPolicyBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | UpdateFindingsPolicyResponse200
     """


    return (await asyncio_detailed(
        client=client,
body=body,

    )).parsed
