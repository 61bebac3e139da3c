from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.enable_mfa_body import EnableMfaBody
from ...models.enable_mfa_response_200 import EnableMfaResponse200
from ...models.error_body import ErrorBody
from typing import cast



def _get_kwargs(
    *,
    body: EnableMfaBody,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/auth/mfa/enable",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> EnableMfaResponse200 | ErrorBody | None:
    if response.status_code == 200:
        response_200 = EnableMfaResponse200.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[EnableMfaResponse200 | ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: EnableMfaBody,

) -> Response[EnableMfaResponse200 | ErrorBody]:
    """ Confirm a TOTP code and turn MFA on

     Confirms a current code of the secret from `POST /api/v1/auth/mfa/setup`; from then on signing in
    needs `mfa_code`. The answer carries 10 recovery codes, once: each can stand in for a TOTP code
    (sign-in, turning MFA off, new recovery codes) one time; only their hashes are kept. No setup first,
    or MFA already on: 400 INVALID_STATE; a wrong or reused code: 422 on `code`.

    Args:
        body (EnableMfaBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnableMfaResponse200 | ErrorBody]
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
    body: EnableMfaBody,

) -> EnableMfaResponse200 | ErrorBody | None:
    """ Confirm a TOTP code and turn MFA on

     Confirms a current code of the secret from `POST /api/v1/auth/mfa/setup`; from then on signing in
    needs `mfa_code`. The answer carries 10 recovery codes, once: each can stand in for a TOTP code
    (sign-in, turning MFA off, new recovery codes) one time; only their hashes are kept. No setup first,
    or MFA already on: 400 INVALID_STATE; a wrong or reused code: 422 on `code`.

    Args:
        body (EnableMfaBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnableMfaResponse200 | ErrorBody
     """


    return sync_detailed(
        client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: EnableMfaBody,

) -> Response[EnableMfaResponse200 | ErrorBody]:
    """ Confirm a TOTP code and turn MFA on

     Confirms a current code of the secret from `POST /api/v1/auth/mfa/setup`; from then on signing in
    needs `mfa_code`. The answer carries 10 recovery codes, once: each can stand in for a TOTP code
    (sign-in, turning MFA off, new recovery codes) one time; only their hashes are kept. No setup first,
    or MFA already on: 400 INVALID_STATE; a wrong or reused code: 422 on `code`.

    Args:
        body (EnableMfaBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EnableMfaResponse200 | ErrorBody]
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
    body: EnableMfaBody,

) -> EnableMfaResponse200 | ErrorBody | None:
    """ Confirm a TOTP code and turn MFA on

     Confirms a current code of the secret from `POST /api/v1/auth/mfa/setup`; from then on signing in
    needs `mfa_code`. The answer carries 10 recovery codes, once: each can stand in for a TOTP code
    (sign-in, turning MFA off, new recovery codes) one time; only their hashes are kept. No setup first,
    or MFA already on: 400 INVALID_STATE; a wrong or reused code: 422 on `code`.

    Args:
        body (EnableMfaBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EnableMfaResponse200 | ErrorBody
     """


    return (await asyncio_detailed(
        client=client,
body=body,

    )).parsed
