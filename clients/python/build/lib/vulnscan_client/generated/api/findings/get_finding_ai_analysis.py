from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.get_finding_ai_analysis_response_200 import GetFindingAiAnalysisResponse200
from typing import cast



def _get_kwargs(
    finding_id: str,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/findings/{finding_id}/ai-analysis".format(finding_id=quote(str(finding_id), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | GetFindingAiAnalysisResponse200 | None:
    if response.status_code == 200:
        response_200 = GetFindingAiAnalysisResponse200.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | GetFindingAiAnalysisResponse200]:
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

) -> Response[ErrorBody | GetFindingAiAnalysisResponse200]:
    """ AI remediation guidance

     Costs one credit of the plan's monthly AI credits (Startup 50, Professional 500, Enterprise 5000);
    asking again about an unchanged finding is free. Used up: 429 AI_QUOTA_EXCEEDED.
    `ansible_playbook_id` names a playbook under ansible/playbooks/ when `automation_available`. The
    prose fields are CommonMark (inline code for files, directives and commands).

    Args:
        finding_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | GetFindingAiAnalysisResponse200]
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

) -> ErrorBody | GetFindingAiAnalysisResponse200 | None:
    """ AI remediation guidance

     Costs one credit of the plan's monthly AI credits (Startup 50, Professional 500, Enterprise 5000);
    asking again about an unchanged finding is free. Used up: 429 AI_QUOTA_EXCEEDED.
    `ansible_playbook_id` names a playbook under ansible/playbooks/ when `automation_available`. The
    prose fields are CommonMark (inline code for files, directives and commands).

    Args:
        finding_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | GetFindingAiAnalysisResponse200
     """


    return sync_detailed(
        finding_id=finding_id,
client=client,

    ).parsed

async def asyncio_detailed(
    finding_id: str,
    *,
    client: AuthenticatedClient,

) -> Response[ErrorBody | GetFindingAiAnalysisResponse200]:
    """ AI remediation guidance

     Costs one credit of the plan's monthly AI credits (Startup 50, Professional 500, Enterprise 5000);
    asking again about an unchanged finding is free. Used up: 429 AI_QUOTA_EXCEEDED.
    `ansible_playbook_id` names a playbook under ansible/playbooks/ when `automation_available`. The
    prose fields are CommonMark (inline code for files, directives and commands).

    Args:
        finding_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | GetFindingAiAnalysisResponse200]
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

) -> ErrorBody | GetFindingAiAnalysisResponse200 | None:
    """ AI remediation guidance

     Costs one credit of the plan's monthly AI credits (Startup 50, Professional 500, Enterprise 5000);
    asking again about an unchanged finding is free. Used up: 429 AI_QUOTA_EXCEEDED.
    `ansible_playbook_id` names a playbook under ansible/playbooks/ when `automation_available`. The
    prose fields are CommonMark (inline code for files, directives and commands).

    Args:
        finding_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | GetFindingAiAnalysisResponse200
     """


    return (await asyncio_detailed(
        finding_id=finding_id,
client=client,

    )).parsed
