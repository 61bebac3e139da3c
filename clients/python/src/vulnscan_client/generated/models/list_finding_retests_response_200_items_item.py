from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.list_finding_retests_response_200_items_item_reason_type_1 import ListFindingRetestsResponse200ItemsItemReasonType1
from ..models.list_finding_retests_response_200_items_item_reason_type_2_type_1 import ListFindingRetestsResponse200ItemsItemReasonType2Type1
from ..models.list_finding_retests_response_200_items_item_reason_type_3_type_1 import ListFindingRetestsResponse200ItemsItemReasonType3Type1
from ..models.list_finding_retests_response_200_items_item_status import ListFindingRetestsResponse200ItemsItemStatus
from ..models.list_finding_retests_response_200_items_item_verdict_type_1 import ListFindingRetestsResponse200ItemsItemVerdictType1
from ..models.list_finding_retests_response_200_items_item_verdict_type_2_type_1 import ListFindingRetestsResponse200ItemsItemVerdictType2Type1
from ..models.list_finding_retests_response_200_items_item_verdict_type_3_type_1 import ListFindingRetestsResponse200ItemsItemVerdictType3Type1
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.list_finding_retests_response_200_items_item_check import ListFindingRetestsResponse200ItemsItemCheck
  from ..models.list_finding_retests_response_200_items_item_evidence import ListFindingRetestsResponse200ItemsItemEvidence





T = TypeVar("T", bound="ListFindingRetestsResponse200ItemsItem")



@_attrs_define
class ListFindingRetestsResponse200ItemsItem:
    """ 
        Attributes:
            id (str): `retest_<id>`
            finding_id (str):
            status (ListFindingRetestsResponse200ItemsItemStatus): `pending` while the scanner runs the check; `completed`
                once it has a verdict
            verdict (ListFindingRetestsResponse200ItemsItemVerdictType1 |
                ListFindingRetestsResponse200ItemsItemVerdictType2Type1 |
                ListFindingRetestsResponse200ItemsItemVerdictType3Type1 | None): `fixed`: the check ran, the component answered
                and the check no longer matched (the finding is resolved as `verified_fixed`). `still_vulnerable`: the check
                matched again; `evidence` is the fresh one. `inconclusive`: no verdict (see `reason`); the finding's status is
                never changed. null while pending
            reason (ListFindingRetestsResponse200ItemsItemReasonType1 |
                ListFindingRetestsResponse200ItemsItemReasonType2Type1 | ListFindingRetestsResponse200ItemsItemReasonType3Type1
                | None): Why a retest was inconclusive: `unreachable` (no route, host down, name not resolved, outside the
                allowed networks), `timeout` (no answer in time, or no scanner reported before the deadline), `refused` (the
                port refused the connection); null otherwise
            detail (str): What was done and seen
            check (ListFindingRetestsResponse200ItemsItemCheck): The one check that ran, and where
            evidence (ListFindingRetestsResponse200ItemsItemEvidence):
            requested_by (str):
            requested_at (datetime.datetime):
            completed_at (datetime.datetime | None):
            finding_status (None | str): The finding's status after the verdict; null while pending
     """

    id: str
    finding_id: str
    status: ListFindingRetestsResponse200ItemsItemStatus
    verdict: ListFindingRetestsResponse200ItemsItemVerdictType1 | ListFindingRetestsResponse200ItemsItemVerdictType2Type1 | ListFindingRetestsResponse200ItemsItemVerdictType3Type1 | None
    reason: ListFindingRetestsResponse200ItemsItemReasonType1 | ListFindingRetestsResponse200ItemsItemReasonType2Type1 | ListFindingRetestsResponse200ItemsItemReasonType3Type1 | None
    detail: str
    check: ListFindingRetestsResponse200ItemsItemCheck
    evidence: ListFindingRetestsResponse200ItemsItemEvidence
    requested_by: str
    requested_at: datetime.datetime
    completed_at: datetime.datetime | None
    finding_status: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.list_finding_retests_response_200_items_item_check import ListFindingRetestsResponse200ItemsItemCheck # noqa: PLC0415
        from ..models.list_finding_retests_response_200_items_item_evidence import ListFindingRetestsResponse200ItemsItemEvidence # noqa: PLC0415
        id = self.id

        finding_id = self.finding_id

        status = self.status.value

        verdict: None | str
        if isinstance(self.verdict, ListFindingRetestsResponse200ItemsItemVerdictType1):
            verdict = self.verdict.value
        elif isinstance(self.verdict, ListFindingRetestsResponse200ItemsItemVerdictType2Type1):
            verdict = self.verdict.value
        elif isinstance(self.verdict, ListFindingRetestsResponse200ItemsItemVerdictType3Type1):
            verdict = self.verdict.value
        else:
            verdict = self.verdict

        reason: None | str
        if isinstance(self.reason, ListFindingRetestsResponse200ItemsItemReasonType1):
            reason = self.reason.value
        elif isinstance(self.reason, ListFindingRetestsResponse200ItemsItemReasonType2Type1):
            reason = self.reason.value
        elif isinstance(self.reason, ListFindingRetestsResponse200ItemsItemReasonType3Type1):
            reason = self.reason.value
        else:
            reason = self.reason

        detail = self.detail

        check = self.check.to_dict()

        evidence = self.evidence.to_dict()

        requested_by = self.requested_by

        requested_at = self.requested_at.isoformat()

        completed_at: None | str
        if isinstance(self.completed_at, datetime.datetime):
            completed_at = self.completed_at.isoformat()
        else:
            completed_at = self.completed_at

        finding_status: None | str
        finding_status = self.finding_status


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "finding_id": finding_id,
            "status": status,
            "verdict": verdict,
            "reason": reason,
            "detail": detail,
            "check": check,
            "evidence": evidence,
            "requested_by": requested_by,
            "requested_at": requested_at,
            "completed_at": completed_at,
            "finding_status": finding_status,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.list_finding_retests_response_200_items_item_check import ListFindingRetestsResponse200ItemsItemCheck # noqa: PLC0415
        from ..models.list_finding_retests_response_200_items_item_evidence import ListFindingRetestsResponse200ItemsItemEvidence # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        finding_id = d.pop("finding_id")

        status = ListFindingRetestsResponse200ItemsItemStatus(d.pop("status"))




        def _parse_verdict(data: object) -> ListFindingRetestsResponse200ItemsItemVerdictType1 | ListFindingRetestsResponse200ItemsItemVerdictType2Type1 | ListFindingRetestsResponse200ItemsItemVerdictType3Type1 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                verdict_type_1 = ListFindingRetestsResponse200ItemsItemVerdictType1(data)



                return verdict_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                verdict_type_2_type_1 = ListFindingRetestsResponse200ItemsItemVerdictType2Type1(data)



                return verdict_type_2_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                verdict_type_3_type_1 = ListFindingRetestsResponse200ItemsItemVerdictType3Type1(data)



                return verdict_type_3_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ListFindingRetestsResponse200ItemsItemVerdictType1 | ListFindingRetestsResponse200ItemsItemVerdictType2Type1 | ListFindingRetestsResponse200ItemsItemVerdictType3Type1 | None, data)

        verdict = _parse_verdict(d.pop("verdict"))


        def _parse_reason(data: object) -> ListFindingRetestsResponse200ItemsItemReasonType1 | ListFindingRetestsResponse200ItemsItemReasonType2Type1 | ListFindingRetestsResponse200ItemsItemReasonType3Type1 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                reason_type_1 = ListFindingRetestsResponse200ItemsItemReasonType1(data)



                return reason_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                reason_type_2_type_1 = ListFindingRetestsResponse200ItemsItemReasonType2Type1(data)



                return reason_type_2_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                reason_type_3_type_1 = ListFindingRetestsResponse200ItemsItemReasonType3Type1(data)



                return reason_type_3_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ListFindingRetestsResponse200ItemsItemReasonType1 | ListFindingRetestsResponse200ItemsItemReasonType2Type1 | ListFindingRetestsResponse200ItemsItemReasonType3Type1 | None, data)

        reason = _parse_reason(d.pop("reason"))


        detail = d.pop("detail")

        check = ListFindingRetestsResponse200ItemsItemCheck.from_dict(d.pop("check"))




        evidence = ListFindingRetestsResponse200ItemsItemEvidence.from_dict(d.pop("evidence"))




        requested_by = d.pop("requested_by")

        requested_at = datetime.datetime.fromisoformat(d.pop("requested_at"))




        def _parse_completed_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                completed_at_type_0 = datetime.datetime.fromisoformat(data)



                return completed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        completed_at = _parse_completed_at(d.pop("completed_at"))


        def _parse_finding_status(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        finding_status = _parse_finding_status(d.pop("finding_status"))


        list_finding_retests_response_200_items_item = cls(
            id=id,
            finding_id=finding_id,
            status=status,
            verdict=verdict,
            reason=reason,
            detail=detail,
            check=check,
            evidence=evidence,
            requested_by=requested_by,
            requested_at=requested_at,
            completed_at=completed_at,
            finding_status=finding_status,
        )


        list_finding_retests_response_200_items_item.additional_properties = d
        return list_finding_retests_response_200_items_item

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
