from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.list_webhook_deliveries_event import ListWebhookDeliveriesEvent
from ...models.list_webhook_deliveries_response_200 import ListWebhookDeliveriesResponse200
from ...models.list_webhook_deliveries_status import ListWebhookDeliveriesStatus
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    webhook_id: str,
    *,
    page: int | Unset = 1,
    per_page: int | Unset = 20,
    status: ListWebhookDeliveriesStatus | Unset = UNSET,
    event: ListWebhookDeliveriesEvent | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["page"] = page

    params["per_page"] = per_page

    json_status: str | Unset = UNSET
    if not isinstance(status, Unset):
        json_status = status.value

    params["status"] = json_status

    json_event: str | Unset = UNSET
    if not isinstance(event, Unset):
        json_event = event.value

    params["event"] = json_event


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/webhooks/{webhook_id}/deliveries".format(webhook_id=quote(str(webhook_id), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | ListWebhookDeliveriesResponse200 | None:
    if response.status_code == 200:
        response_200 = ListWebhookDeliveriesResponse200.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | ListWebhookDeliveriesResponse200]:
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
    page: int | Unset = 1,
    per_page: int | Unset = 20,
    status: ListWebhookDeliveriesStatus | Unset = UNSET,
    event: ListWebhookDeliveriesEvent | Unset = UNSET,

) -> Response[ErrorBody | ListWebhookDeliveriesResponse200]:
    """ Delivery history of a webhook, newest first

     Each event sent to the webhook with its status, the last attempt's HTTP status and time, and the
    next retry while one is scheduled.

    Args:
        webhook_id (str):
        page (int | Unset):  Default: 1.
        per_page (int | Unset):  Default: 20.
        status (ListWebhookDeliveriesStatus | Unset):
        event (ListWebhookDeliveriesEvent | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | ListWebhookDeliveriesResponse200]
     """


    kwargs = _get_kwargs(
        webhook_id=webhook_id,
page=page,
per_page=per_page,
status=status,
event=event,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    webhook_id: str,
    *,
    client: AuthenticatedClient,
    page: int | Unset = 1,
    per_page: int | Unset = 20,
    status: ListWebhookDeliveriesStatus | Unset = UNSET,
    event: ListWebhookDeliveriesEvent | Unset = UNSET,

) -> ErrorBody | ListWebhookDeliveriesResponse200 | None:
    """ Delivery history of a webhook, newest first

     Each event sent to the webhook with its status, the last attempt's HTTP status and time, and the
    next retry while one is scheduled.

    Args:
        webhook_id (str):
        page (int | Unset):  Default: 1.
        per_page (int | Unset):  Default: 20.
        status (ListWebhookDeliveriesStatus | Unset):
        event (ListWebhookDeliveriesEvent | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | ListWebhookDeliveriesResponse200
     """


    return sync_detailed(
        webhook_id=webhook_id,
client=client,
page=page,
per_page=per_page,
status=status,
event=event,

    ).parsed

async def asyncio_detailed(
    webhook_id: str,
    *,
    client: AuthenticatedClient,
    page: int | Unset = 1,
    per_page: int | Unset = 20,
    status: ListWebhookDeliveriesStatus | Unset = UNSET,
    event: ListWebhookDeliveriesEvent | Unset = UNSET,

) -> Response[ErrorBody | ListWebhookDeliveriesResponse200]:
    """ Delivery history of a webhook, newest first

     Each event sent to the webhook with its status, the last attempt's HTTP status and time, and the
    next retry while one is scheduled.

    Args:
        webhook_id (str):
        page (int | Unset):  Default: 1.
        per_page (int | Unset):  Default: 20.
        status (ListWebhookDeliveriesStatus | Unset):
        event (ListWebhookDeliveriesEvent | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | ListWebhookDeliveriesResponse200]
     """


    kwargs = _get_kwargs(
        webhook_id=webhook_id,
page=page,
per_page=per_page,
status=status,
event=event,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    webhook_id: str,
    *,
    client: AuthenticatedClient,
    page: int | Unset = 1,
    per_page: int | Unset = 20,
    status: ListWebhookDeliveriesStatus | Unset = UNSET,
    event: ListWebhookDeliveriesEvent | Unset = UNSET,

) -> ErrorBody | ListWebhookDeliveriesResponse200 | None:
    """ Delivery history of a webhook, newest first

     Each event sent to the webhook with its status, the last attempt's HTTP status and time, and the
    next retry while one is scheduled.

    Args:
        webhook_id (str):
        page (int | Unset):  Default: 1.
        per_page (int | Unset):  Default: 20.
        status (ListWebhookDeliveriesStatus | Unset):
        event (ListWebhookDeliveriesEvent | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | ListWebhookDeliveriesResponse200
     """


    return (await asyncio_detailed(
        webhook_id=webhook_id,
client=client,
page=page,
per_page=per_page,
status=status,
event=event,

    )).parsed
