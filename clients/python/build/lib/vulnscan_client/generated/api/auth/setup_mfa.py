from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.setup_mfa_response_200 import SetupMfaResponse200
from typing import cast



def _get_kwargs(
    
) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/auth/mfa/setup",
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | SetupMfaResponse200 | None:
    if response.status_code == 200:
        response_200 = SetupMfaResponse200.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | SetupMfaResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,

) -> Response[ErrorBody | SetupMfaResponse200]:
    """ Start MFA enrolment (TOTP)

     Answers a new TOTP secret (RFC 6238: SHA-1, 6 digits, 30 s) and its `otpauth://` URI for a QR code.
    MFA is not on until `POST /api/v1/auth/mfa/enable` confirms a code from it. MFA already on: 400
    INVALID_STATE.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | SetupMfaResponse200]
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

) -> ErrorBody | SetupMfaResponse200 | None:
    """ Start MFA enrolment (TOTP)

     Answers a new TOTP secret (RFC 6238: SHA-1, 6 digits, 30 s) and its `otpauth://` URI for a QR code.
    MFA is not on until `POST /api/v1/auth/mfa/enable` confirms a code from it. MFA already on: 400
    INVALID_STATE.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | SetupMfaResponse200
     """


    return sync_detailed(
        client=client,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,

) -> Response[ErrorBody | SetupMfaResponse200]:
    """ Start MFA enrolment (TOTP)

     Answers a new TOTP secret (RFC 6238: SHA-1, 6 digits, 30 s) and its `otpauth://` URI for a QR code.
    MFA is not on until `POST /api/v1/auth/mfa/enable` confirms a code from it. MFA already on: 400
    INVALID_STATE.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | SetupMfaResponse200]
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

) -> ErrorBody | SetupMfaResponse200 | None:
    """ Start MFA enrolment (TOTP)

     Answers a new TOTP secret (RFC 6238: SHA-1, 6 digits, 30 s) and its `otpauth://` URI for a QR code.
    MFA is not on until `POST /api/v1/auth/mfa/enable` confirms a code from it. MFA already on: 400
    INVALID_STATE.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | SetupMfaResponse200
     """


    return (await asyncio_detailed(
        client=client,

    )).parsed
