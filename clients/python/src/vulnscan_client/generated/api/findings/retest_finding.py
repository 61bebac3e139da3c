from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.retest_finding_response_202 import RetestFindingResponse202
from typing import cast



def _get_kwargs(
    finding_id: str,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/findings/{finding_id}/retest".format(finding_id=quote(str(finding_id), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | RetestFindingResponse202 | None:
    if response.status_code == 202:
        response_202 = RetestFindingResponse202.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | RetestFindingResponse202]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    finding_id: str,
    *,
    client: AuthenticatedClient,

) -> Response[ErrorBody | RetestFindingResponse202]:
    """ Retest one finding

     Runs only the check that produced the finding (its template, TLS, SSH, web, datastore or version-
    match check) against its component, on the scanner pool, and answers at once with the pending retest
    (202); poll `GET /api/v1/findings/{finding_id}/retests` for the verdict (typically within seconds).
    `fixed` resolves the finding with `resolution: verified_fixed` and a history entry (events
    `finding.retested`, `vulnerability.status_changed`, `vulnerability.resolved`); a verified fix is
    also recorded as dated evidence on the controls the finding maps to. `inconclusive` never changes
    the status.

    Budget: retests are counted apart from scans, ten per monthly scan of the plan (Startup 250,
    Professional 1500, Enterprise unlimited), one running retest per finding (400 INVALID_STATE while
    one is pending). Findings whose check cannot run on its own (port inventories, correlation notes,
    plans) or whose component names no port answer 400 INVALID_STATE.

    Args:
        finding_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | RetestFindingResponse202]
     """


    kwargs = _get_kwargs(
        finding_id=finding_id,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    finding_id: str,
    *,
    client: AuthenticatedClient,

) -> ErrorBody | RetestFindingResponse202 | None:
    """ Retest one finding

     Runs only the check that produced the finding (its template, TLS, SSH, web, datastore or version-
    match check) against its component, on the scanner pool, and answers at once with the pending retest
    (202); poll `GET /api/v1/findings/{finding_id}/retests` for the verdict (typically within seconds).
    `fixed` resolves the finding with `resolution: verified_fixed` and a history entry (events
    `finding.retested`, `vulnerability.status_changed`, `vulnerability.resolved`); a verified fix is
    also recorded as dated evidence on the controls the finding maps to. `inconclusive` never changes
    the status.

    Budget: retests are counted apart from scans, ten per monthly scan of the plan (Startup 250,
    Professional 1500, Enterprise unlimited), one running retest per finding (400 INVALID_STATE while
    one is pending). Findings whose check cannot run on its own (port inventories, correlation notes,
    plans) or whose component names no port answer 400 INVALID_STATE.

    Args:
        finding_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | RetestFindingResponse202
     """


    return sync_detailed(
        finding_id=finding_id,
client=client,

    ).parsed

async def asyncio_detailed(
    finding_id: str,
    *,
    client: AuthenticatedClient,

) -> Response[ErrorBody | RetestFindingResponse202]:
    """ Retest one finding

     Runs only the check that produced the finding (its template, TLS, SSH, web, datastore or version-
    match check) against its component, on the scanner pool, and answers at once with the pending retest
    (202); poll `GET /api/v1/findings/{finding_id}/retests` for the verdict (typically within seconds).
    `fixed` resolves the finding with `resolution: verified_fixed` and a history entry (events
    `finding.retested`, `vulnerability.status_changed`, `vulnerability.resolved`); a verified fix is
    also recorded as dated evidence on the controls the finding maps to. `inconclusive` never changes
    the status.

    Budget: retests are counted apart from scans, ten per monthly scan of the plan (Startup 250,
    Professional 1500, Enterprise unlimited), one running retest per finding (400 INVALID_STATE while
    one is pending). Findings whose check cannot run on its own (port inventories, correlation notes,
    plans) or whose component names no port answer 400 INVALID_STATE.

    Args:
        finding_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | RetestFindingResponse202]
     """


    kwargs = _get_kwargs(
        finding_id=finding_id,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    finding_id: str,
    *,
    client: AuthenticatedClient,

) -> ErrorBody | RetestFindingResponse202 | None:
    """ Retest one finding

     Runs only the check that produced the finding (its template, TLS, SSH, web, datastore or version-
    match check) against its component, on the scanner pool, and answers at once with the pending retest
    (202); poll `GET /api/v1/findings/{finding_id}/retests` for the verdict (typically within seconds).
    `fixed` resolves the finding with `resolution: verified_fixed` and a history entry (events
    `finding.retested`, `vulnerability.status_changed`, `vulnerability.resolved`); a verified fix is
    also recorded as dated evidence on the controls the finding maps to. `inconclusive` never changes
    the status.

    Budget: retests are counted apart from scans, ten per monthly scan of the plan (Startup 250,
    Professional 1500, Enterprise unlimited), one running retest per finding (400 INVALID_STATE while
    one is pending). Findings whose check cannot run on its own (port inventories, correlation notes,
    plans) or whose component names no port answer 400 INVALID_STATE.

    Args:
        finding_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | RetestFindingResponse202
     """


    return (await asyncio_detailed(
        finding_id=finding_id,
client=client,

    )).parsed
