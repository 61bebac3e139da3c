from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from typing import cast



def _get_kwargs(
    scan_id: str,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/scans/{scan_id}/events".format(scan_id=quote(str(scan_id), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | str | None:
    if response.status_code == 200:
        response_200 = response.text
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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | str]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    scan_id: str,
    *,
    client: AuthenticatedClient,

) -> Response[ErrorBody | str]:
    """ Follow a scan's progress as server-sent events

     A `text/event-stream` that sends the scan detail (the same JSON as `GET /api/v1/scans/{scan_id}`) as
    an `event: scan` at once and again each time it changes (progress, phase, tool, counts), then
    `event: end` and closes when the scan is completed, failed or cancelled. A comment line keeps the
    connection alive every 15 s; after 10 minutes the stream closes without `end` and the client
    reconnects (the `retry:` field says when). The whole stream is one request against the hourly and
    daily rate limits, however long it lasts; an unknown scan or another organization's answers 404 as
    JSON before any event is sent.

    Args:
        scan_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | str]
     """


    kwargs = _get_kwargs(
        scan_id=scan_id,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    scan_id: str,
    *,
    client: AuthenticatedClient,

) -> ErrorBody | str | None:
    """ Follow a scan's progress as server-sent events

     A `text/event-stream` that sends the scan detail (the same JSON as `GET /api/v1/scans/{scan_id}`) as
    an `event: scan` at once and again each time it changes (progress, phase, tool, counts), then
    `event: end` and closes when the scan is completed, failed or cancelled. A comment line keeps the
    connection alive every 15 s; after 10 minutes the stream closes without `end` and the client
    reconnects (the `retry:` field says when). The whole stream is one request against the hourly and
    daily rate limits, however long it lasts; an unknown scan or another organization's answers 404 as
    JSON before any event is sent.

    Args:
        scan_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | str
     """


    return sync_detailed(
        scan_id=scan_id,
client=client,

    ).parsed

async def asyncio_detailed(
    scan_id: str,
    *,
    client: AuthenticatedClient,

) -> Response[ErrorBody | str]:
    """ Follow a scan's progress as server-sent events

     A `text/event-stream` that sends the scan detail (the same JSON as `GET /api/v1/scans/{scan_id}`) as
    an `event: scan` at once and again each time it changes (progress, phase, tool, counts), then
    `event: end` and closes when the scan is completed, failed or cancelled. A comment line keeps the
    connection alive every 15 s; after 10 minutes the stream closes without `end` and the client
    reconnects (the `retry:` field says when). The whole stream is one request against the hourly and
    daily rate limits, however long it lasts; an unknown scan or another organization's answers 404 as
    JSON before any event is sent.

    Args:
        scan_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | str]
     """


    kwargs = _get_kwargs(
        scan_id=scan_id,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    scan_id: str,
    *,
    client: AuthenticatedClient,

) -> ErrorBody | str | None:
    """ Follow a scan's progress as server-sent events

     A `text/event-stream` that sends the scan detail (the same JSON as `GET /api/v1/scans/{scan_id}`) as
    an `event: scan` at once and again each time it changes (progress, phase, tool, counts), then
    `event: end` and closes when the scan is completed, failed or cancelled. A comment line keeps the
    connection alive every 15 s; after 10 minutes the stream closes without `end` and the client
    reconnects (the `retry:` field says when). The whole stream is one request against the hourly and
    daily rate limits, however long it lasts; an unknown scan or another organization's answers 404 as
    JSON before any event is sent.

    Args:
        scan_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | str
     """


    return (await asyncio_detailed(
        scan_id=scan_id,
client=client,

    )).parsed
