from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.retest_finding_response_202_reason_type_1 import RetestFindingResponse202ReasonType1
from ..models.retest_finding_response_202_reason_type_2_type_1 import RetestFindingResponse202ReasonType2Type1
from ..models.retest_finding_response_202_reason_type_3_type_1 import RetestFindingResponse202ReasonType3Type1
from ..models.retest_finding_response_202_status import RetestFindingResponse202Status
from ..models.retest_finding_response_202_verdict_type_1 import RetestFindingResponse202VerdictType1
from ..models.retest_finding_response_202_verdict_type_2_type_1 import RetestFindingResponse202VerdictType2Type1
from ..models.retest_finding_response_202_verdict_type_3_type_1 import RetestFindingResponse202VerdictType3Type1
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.retest_finding_response_202_check import RetestFindingResponse202Check
  from ..models.retest_finding_response_202_evidence import RetestFindingResponse202Evidence





T = TypeVar("T", bound="RetestFindingResponse202")



@_attrs_define
class RetestFindingResponse202:
    """ 
        Attributes:
            id (str): `retest_<id>`
            finding_id (str):
            status (RetestFindingResponse202Status): `pending` while the scanner runs the check; `completed` once it has a
                verdict
            verdict (None | RetestFindingResponse202VerdictType1 | RetestFindingResponse202VerdictType2Type1 |
                RetestFindingResponse202VerdictType3Type1): `fixed`: the check ran, the component answered and the check no
                longer matched (the finding is resolved as `verified_fixed`). `still_vulnerable`: the check matched again;
                `evidence` is the fresh one. `inconclusive`: no verdict (see `reason`); the finding's status is never changed.
                null while pending
            reason (None | RetestFindingResponse202ReasonType1 | RetestFindingResponse202ReasonType2Type1 |
                RetestFindingResponse202ReasonType3Type1): Why a retest was inconclusive: `unreachable` (no route, host down,
                name not resolved, outside the allowed networks), `timeout` (no answer in time, or no scanner reported before
                the deadline), `refused` (the port refused the connection); null otherwise
            detail (str): What was done and seen
            check (RetestFindingResponse202Check): The one check that ran, and where
            evidence (RetestFindingResponse202Evidence):
            requested_by (str):
            requested_at (datetime.datetime):
            completed_at (datetime.datetime | None):
            finding_status (None | str): The finding's status after the verdict; null while pending
            remaining_this_month (int | None): Retests left this month; null when unlimited
     """

    id: str
    finding_id: str
    status: RetestFindingResponse202Status
    verdict: None | RetestFindingResponse202VerdictType1 | RetestFindingResponse202VerdictType2Type1 | RetestFindingResponse202VerdictType3Type1
    reason: None | RetestFindingResponse202ReasonType1 | RetestFindingResponse202ReasonType2Type1 | RetestFindingResponse202ReasonType3Type1
    detail: str
    check: RetestFindingResponse202Check
    evidence: RetestFindingResponse202Evidence
    requested_by: str
    requested_at: datetime.datetime
    completed_at: datetime.datetime | None
    finding_status: None | str
    remaining_this_month: int | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.retest_finding_response_202_check import RetestFindingResponse202Check # noqa: PLC0415
        from ..models.retest_finding_response_202_evidence import RetestFindingResponse202Evidence # noqa: PLC0415
        id = self.id

        finding_id = self.finding_id

        status = self.status.value

        verdict: None | str
        if isinstance(self.verdict, RetestFindingResponse202VerdictType1):
            verdict = self.verdict.value
        elif isinstance(self.verdict, RetestFindingResponse202VerdictType2Type1):
            verdict = self.verdict.value
        elif isinstance(self.verdict, RetestFindingResponse202VerdictType3Type1):
            verdict = self.verdict.value
        else:
            verdict = self.verdict

        reason: None | str
        if isinstance(self.reason, RetestFindingResponse202ReasonType1):
            reason = self.reason.value
        elif isinstance(self.reason, RetestFindingResponse202ReasonType2Type1):
            reason = self.reason.value
        elif isinstance(self.reason, RetestFindingResponse202ReasonType3Type1):
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

        remaining_this_month: int | None
        remaining_this_month = self.remaining_this_month


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
            "remaining_this_month": remaining_this_month,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.retest_finding_response_202_check import RetestFindingResponse202Check # noqa: PLC0415
        from ..models.retest_finding_response_202_evidence import RetestFindingResponse202Evidence # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        finding_id = d.pop("finding_id")

        status = RetestFindingResponse202Status(d.pop("status"))




        def _parse_verdict(data: object) -> None | RetestFindingResponse202VerdictType1 | RetestFindingResponse202VerdictType2Type1 | RetestFindingResponse202VerdictType3Type1:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                verdict_type_1 = RetestFindingResponse202VerdictType1(data)



                return verdict_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                verdict_type_2_type_1 = RetestFindingResponse202VerdictType2Type1(data)



                return verdict_type_2_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                verdict_type_3_type_1 = RetestFindingResponse202VerdictType3Type1(data)



                return verdict_type_3_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | RetestFindingResponse202VerdictType1 | RetestFindingResponse202VerdictType2Type1 | RetestFindingResponse202VerdictType3Type1, data)

        verdict = _parse_verdict(d.pop("verdict"))


        def _parse_reason(data: object) -> None | RetestFindingResponse202ReasonType1 | RetestFindingResponse202ReasonType2Type1 | RetestFindingResponse202ReasonType3Type1:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                reason_type_1 = RetestFindingResponse202ReasonType1(data)



                return reason_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                reason_type_2_type_1 = RetestFindingResponse202ReasonType2Type1(data)



                return reason_type_2_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                reason_type_3_type_1 = RetestFindingResponse202ReasonType3Type1(data)



                return reason_type_3_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | RetestFindingResponse202ReasonType1 | RetestFindingResponse202ReasonType2Type1 | RetestFindingResponse202ReasonType3Type1, data)

        reason = _parse_reason(d.pop("reason"))


        detail = d.pop("detail")

        check = RetestFindingResponse202Check.from_dict(d.pop("check"))




        evidence = RetestFindingResponse202Evidence.from_dict(d.pop("evidence"))




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


        def _parse_remaining_this_month(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        remaining_this_month = _parse_remaining_this_month(d.pop("remaining_this_month"))


        retest_finding_response_202 = cls(
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
            remaining_this_month=remaining_this_month,
        )


        retest_finding_response_202.additional_properties = d
        return retest_finding_response_202

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
