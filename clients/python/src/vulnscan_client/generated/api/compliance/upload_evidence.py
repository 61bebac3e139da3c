from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.upload_evidence_body import UploadEvidenceBody
from ...models.upload_evidence_response_201 import UploadEvidenceResponse201
from typing import cast



def _get_kwargs(
    control_id: str,
    *,
    body: UploadEvidenceBody,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/controls/{control_id}/evidence".format(control_id=quote(str(control_id), safe=""),),
    }

    _kwargs["files"] = body.to_multipart()

    headers["Content-Type"] = "multipart/form-data; boundary=+++"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | UploadEvidenceResponse201 | None:
    if response.status_code == 201:
        response_201 = UploadEvidenceResponse201.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | UploadEvidenceResponse201]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    control_id: str,
    *,
    client: AuthenticatedClient,
    body: UploadEvidenceBody,

) -> Response[ErrorBody | UploadEvidenceResponse201]:
    """ Upload evidence for a control

     `multipart/form-data` with a `file` part (1 byte to 10 MiB) and optional fields `title`,
    `description`, `expires_at`, `observed_from`, `observed_to` (ISO 8601). The file is checked for
    malware: an infected file is `quarantined` (never downloadable; quarantine.threat_detected), a clean
    one emits evidence.uploaded; while the malware scanner is unavailable the item is `pending_scan` and
    not downloadable until checked.

    Args:
        control_id (str):
        body (UploadEvidenceBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | UploadEvidenceResponse201]
     """


    kwargs = _get_kwargs(
        control_id=control_id,
body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    control_id: str,
    *,
    client: AuthenticatedClient,
    body: UploadEvidenceBody,

) -> ErrorBody | UploadEvidenceResponse201 | None:
    """ Upload evidence for a control

     `multipart/form-data` with a `file` part (1 byte to 10 MiB) and optional fields `title`,
    `description`, `expires_at`, `observed_from`, `observed_to` (ISO 8601). The file is checked for
    malware: an infected file is `quarantined` (never downloadable; quarantine.threat_detected), a clean
    one emits evidence.uploaded; while the malware scanner is unavailable the item is `pending_scan` and
    not downloadable until checked.

    Args:
        control_id (str):
        body (UploadEvidenceBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | UploadEvidenceResponse201
     """


    return sync_detailed(
        control_id=control_id,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    control_id: str,
    *,
    client: AuthenticatedClient,
    body: UploadEvidenceBody,

) -> Response[ErrorBody | UploadEvidenceResponse201]:
    """ Upload evidence for a control

     `multipart/form-data` with a `file` part (1 byte to 10 MiB) and optional fields `title`,
    `description`, `expires_at`, `observed_from`, `observed_to` (ISO 8601). The file is checked for
    malware: an infected file is `quarantined` (never downloadable; quarantine.threat_detected), a clean
    one emits evidence.uploaded; while the malware scanner is unavailable the item is `pending_scan` and
    not downloadable until checked.

    Args:
        control_id (str):
        body (UploadEvidenceBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | UploadEvidenceResponse201]
     """


    kwargs = _get_kwargs(
        control_id=control_id,
body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    control_id: str,
    *,
    client: AuthenticatedClient,
    body: UploadEvidenceBody,

) -> ErrorBody | UploadEvidenceResponse201 | None:
    """ Upload evidence for a control

     `multipart/form-data` with a `file` part (1 byte to 10 MiB) and optional fields `title`,
    `description`, `expires_at`, `observed_from`, `observed_to` (ISO 8601). The file is checked for
    malware: an infected file is `quarantined` (never downloadable; quarantine.threat_detected), a clean
    one emits evidence.uploaded; while the malware scanner is unavailable the item is `pending_scan` and
    not downloadable until checked.

    Args:
        control_id (str):
        body (UploadEvidenceBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | UploadEvidenceResponse201
     """


    return (await asyncio_detailed(
        control_id=control_id,
client=client,
body=body,

    )).parsed
