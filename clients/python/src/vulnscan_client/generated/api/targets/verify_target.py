from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.verify_target_body import VerifyTargetBody
from ...models.verify_target_response_200 import VerifyTargetResponse200
from typing import cast



def _get_kwargs(
    target_id: str,
    *,
    body: VerifyTargetBody,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/targets/{target_id}/verify".format(target_id=quote(str(target_id), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | VerifyTargetResponse200 | None:
    if response.status_code == 200:
        response_200 = VerifyTargetResponse200.from_dict(response.json())



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

    if response.status_code == 409:
        response_409 = ErrorBody.from_dict(response.json())



        return response_409

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | VerifyTargetResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    target_id: str,
    *,
    client: AuthenticatedClient,
    body: VerifyTargetBody,

) -> Response[ErrorBody | VerifyTargetResponse200]:
    """ Check a target's proof now

     Looks for the proof with `method`, or with each method the target allows, and records every attempt.
    DNS answers come from the installation's resolver; HTTP look-ups follow the webhooks' egress rules
    (public addresses only unless the operator allows more; redirects are not followed). A domain is
    verified by `dns_txt` (the name only) or `http_file` (the name and every address it served the file
    from); an IP or range by `reverse_dns` (every address's PTR under a verified domain), `http_file` on
    every address, or the operator's attestation. The answer is the target after the check: `verified`,
    or `failed` with `last_error`.

    Args:
        target_id (str):
        body (VerifyTargetBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | VerifyTargetResponse200]
     """


    kwargs = _get_kwargs(
        target_id=target_id,
body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    target_id: str,
    *,
    client: AuthenticatedClient,
    body: VerifyTargetBody,

) -> ErrorBody | VerifyTargetResponse200 | None:
    """ Check a target's proof now

     Looks for the proof with `method`, or with each method the target allows, and records every attempt.
    DNS answers come from the installation's resolver; HTTP look-ups follow the webhooks' egress rules
    (public addresses only unless the operator allows more; redirects are not followed). A domain is
    verified by `dns_txt` (the name only) or `http_file` (the name and every address it served the file
    from); an IP or range by `reverse_dns` (every address's PTR under a verified domain), `http_file` on
    every address, or the operator's attestation. The answer is the target after the check: `verified`,
    or `failed` with `last_error`.

    Args:
        target_id (str):
        body (VerifyTargetBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | VerifyTargetResponse200
     """


    return sync_detailed(
        target_id=target_id,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    target_id: str,
    *,
    client: AuthenticatedClient,
    body: VerifyTargetBody,

) -> Response[ErrorBody | VerifyTargetResponse200]:
    """ Check a target's proof now

     Looks for the proof with `method`, or with each method the target allows, and records every attempt.
    DNS answers come from the installation's resolver; HTTP look-ups follow the webhooks' egress rules
    (public addresses only unless the operator allows more; redirects are not followed). A domain is
    verified by `dns_txt` (the name only) or `http_file` (the name and every address it served the file
    from); an IP or range by `reverse_dns` (every address's PTR under a verified domain), `http_file` on
    every address, or the operator's attestation. The answer is the target after the check: `verified`,
    or `failed` with `last_error`.

    Args:
        target_id (str):
        body (VerifyTargetBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | VerifyTargetResponse200]
     """


    kwargs = _get_kwargs(
        target_id=target_id,
body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    target_id: str,
    *,
    client: AuthenticatedClient,
    body: VerifyTargetBody,

) -> ErrorBody | VerifyTargetResponse200 | None:
    """ Check a target's proof now

     Looks for the proof with `method`, or with each method the target allows, and records every attempt.
    DNS answers come from the installation's resolver; HTTP look-ups follow the webhooks' egress rules
    (public addresses only unless the operator allows more; redirects are not followed). A domain is
    verified by `dns_txt` (the name only) or `http_file` (the name and every address it served the file
    from); an IP or range by `reverse_dns` (every address's PTR under a verified domain), `http_file` on
    every address, or the operator's attestation. The answer is the target after the check: `verified`,
    or `failed` with `last_error`.

    Args:
        target_id (str):
        body (VerifyTargetBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | VerifyTargetResponse200
     """


    return (await asyncio_detailed(
        target_id=target_id,
client=client,
body=body,

    )).parsed
