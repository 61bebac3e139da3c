from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.disable_mfa_body import DisableMfaBody
from ...models.disable_mfa_response_200 import DisableMfaResponse200
from ...models.error_body import ErrorBody
from typing import cast



def _get_kwargs(
    *,
    body: DisableMfaBody,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/auth/mfa/disable",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> DisableMfaResponse200 | ErrorBody | None:
    if response.status_code == 200:
        response_200 = DisableMfaResponse200.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[DisableMfaResponse200 | ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: DisableMfaBody,

) -> Response[DisableMfaResponse200 | ErrorBody]:
    """ Turn MFA off (needs a current code)

     Needs a current TOTP code that has not been used before, or an unused recovery code (for whoever
    lost the authenticator), so a stolen token alone cannot turn MFA off. The recovery codes are
    deleted. Emits user.mfa_disabled. MFA not on: 400 INVALID_STATE.

    Args:
        body (DisableMfaBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DisableMfaResponse200 | ErrorBody]
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
    body: DisableMfaBody,

) -> DisableMfaResponse200 | ErrorBody | None:
    """ Turn MFA off (needs a current code)

     Needs a current TOTP code that has not been used before, or an unused recovery code (for whoever
    lost the authenticator), so a stolen token alone cannot turn MFA off. The recovery codes are
    deleted. Emits user.mfa_disabled. MFA not on: 400 INVALID_STATE.

    Args:
        body (DisableMfaBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DisableMfaResponse200 | ErrorBody
     """


    return sync_detailed(
        client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: DisableMfaBody,

) -> Response[DisableMfaResponse200 | ErrorBody]:
    """ Turn MFA off (needs a current code)

     Needs a current TOTP code that has not been used before, or an unused recovery code (for whoever
    lost the authenticator), so a stolen token alone cannot turn MFA off. The recovery codes are
    deleted. Emits user.mfa_disabled. MFA not on: 400 INVALID_STATE.

    Args:
        body (DisableMfaBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DisableMfaResponse200 | ErrorBody]
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
    body: DisableMfaBody,

) -> DisableMfaResponse200 | ErrorBody | None:
    """ Turn MFA off (needs a current code)

     Needs a current TOTP code that has not been used before, or an unused recovery code (for whoever
    lost the authenticator), so a stolen token alone cannot turn MFA off. The recovery codes are
    deleted. Emits user.mfa_disabled. MFA not on: 400 INVALID_STATE.

    Args:
        body (DisableMfaBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DisableMfaResponse200 | ErrorBody
     """


    return (await asyncio_detailed(
        client=client,
body=body,

    )).parsed
