from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.regenerate_recovery_codes_body import RegenerateRecoveryCodesBody
from ...models.regenerate_recovery_codes_response_200 import RegenerateRecoveryCodesResponse200
from typing import cast



def _get_kwargs(
    *,
    body: RegenerateRecoveryCodesBody,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/auth/mfa/recovery-codes",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | RegenerateRecoveryCodesResponse200 | None:
    if response.status_code == 200:
        response_200 = RegenerateRecoveryCodesResponse200.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | RegenerateRecoveryCodesResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: RegenerateRecoveryCodesBody,

) -> Response[ErrorBody | RegenerateRecoveryCodesResponse200]:
    """ Replace your MFA recovery codes

     Makes 10 new recovery codes (in this response only) after a current TOTP code or an unused recovery
    code; every earlier code stops working. MFA not on: 400 INVALID_STATE; a wrong or used code: 422 on
    `code`.

    Args:
        body (RegenerateRecoveryCodesBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | RegenerateRecoveryCodesResponse200]
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
    body: RegenerateRecoveryCodesBody,

) -> ErrorBody | RegenerateRecoveryCodesResponse200 | None:
    """ Replace your MFA recovery codes

     Makes 10 new recovery codes (in this response only) after a current TOTP code or an unused recovery
    code; every earlier code stops working. MFA not on: 400 INVALID_STATE; a wrong or used code: 422 on
    `code`.

    Args:
        body (RegenerateRecoveryCodesBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | RegenerateRecoveryCodesResponse200
     """


    return sync_detailed(
        client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: RegenerateRecoveryCodesBody,

) -> Response[ErrorBody | RegenerateRecoveryCodesResponse200]:
    """ Replace your MFA recovery codes

     Makes 10 new recovery codes (in this response only) after a current TOTP code or an unused recovery
    code; every earlier code stops working. MFA not on: 400 INVALID_STATE; a wrong or used code: 422 on
    `code`.

    Args:
        body (RegenerateRecoveryCodesBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | RegenerateRecoveryCodesResponse200]
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
    body: RegenerateRecoveryCodesBody,

) -> ErrorBody | RegenerateRecoveryCodesResponse200 | None:
    """ Replace your MFA recovery codes

     Makes 10 new recovery codes (in this response only) after a current TOTP code or an unused recovery
    code; every earlier code stops working. MFA not on: 400 INVALID_STATE; a wrong or used code: 422 on
    `code`.

    Args:
        body (RegenerateRecoveryCodesBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | RegenerateRecoveryCodesResponse200
     """


    return (await asyncio_detailed(
        client=client,
body=body,

    )).parsed
