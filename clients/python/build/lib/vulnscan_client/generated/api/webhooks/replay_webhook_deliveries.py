from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.replay_webhook_deliveries_body import ReplayWebhookDeliveriesBody
from ...models.replay_webhook_deliveries_response_202 import ReplayWebhookDeliveriesResponse202
from typing import cast



def _get_kwargs(
    webhook_id: str,
    *,
    body: ReplayWebhookDeliveriesBody,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/webhooks/{webhook_id}/deliveries/replay".format(webhook_id=quote(str(webhook_id), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | ReplayWebhookDeliveriesResponse202 | None:
    if response.status_code == 202:
        response_202 = ReplayWebhookDeliveriesResponse202.from_dict(response.json())



        return response_202

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | ReplayWebhookDeliveriesResponse202]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    webhook_id: str,
    *,
    client: AuthenticatedClient,
    body: ReplayWebhookDeliveriesBody,

) -> Response[ErrorBody | ReplayWebhookDeliveriesResponse202]:
    """ Replay every failed delivery of a time window

     Schedules one more attempt now for each delivery that failed all its attempts and was created in
    [from, to) (at most 1000 per call).

    Args:
        webhook_id (str):
        body (ReplayWebhookDeliveriesBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | ReplayWebhookDeliveriesResponse202]
     """


    kwargs = _get_kwargs(
        webhook_id=webhook_id,
body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    webhook_id: str,
    *,
    client: AuthenticatedClient,
    body: ReplayWebhookDeliveriesBody,

) -> ErrorBody | ReplayWebhookDeliveriesResponse202 | None:
    """ Replay every failed delivery of a time window

     Schedules one more attempt now for each delivery that failed all its attempts and was created in
    [from, to) (at most 1000 per call).

    Args:
        webhook_id (str):
        body (ReplayWebhookDeliveriesBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | ReplayWebhookDeliveriesResponse202
     """


    return sync_detailed(
        webhook_id=webhook_id,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    webhook_id: str,
    *,
    client: AuthenticatedClient,
    body: ReplayWebhookDeliveriesBody,

) -> Response[ErrorBody | ReplayWebhookDeliveriesResponse202]:
    """ Replay every failed delivery of a time window

     Schedules one more attempt now for each delivery that failed all its attempts and was created in
    [from, to) (at most 1000 per call).

    Args:
        webhook_id (str):
        body (ReplayWebhookDeliveriesBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | ReplayWebhookDeliveriesResponse202]
     """


    kwargs = _get_kwargs(
        webhook_id=webhook_id,
body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    webhook_id: str,
    *,
    client: AuthenticatedClient,
    body: ReplayWebhookDeliveriesBody,

) -> ErrorBody | ReplayWebhookDeliveriesResponse202 | None:
    """ Replay every failed delivery of a time window

     Schedules one more attempt now for each delivery that failed all its attempts and was created in
    [from, to) (at most 1000 per call).

    Args:
        webhook_id (str):
        body (ReplayWebhookDeliveriesBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | ReplayWebhookDeliveriesResponse202
     """


    return (await asyncio_detailed(
        webhook_id=webhook_id,
client=client,
body=body,

    )).parsed
