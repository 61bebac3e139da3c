from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.answer_audit_request_body_status import AnswerAuditRequestBodyStatus
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="AnswerAuditRequestBody")



@_attrs_define
class AnswerAuditRequestBody:
    """ 
        Attributes:
            answer (str):
            evidence_ids (list[str] | Unset):
            status (AnswerAuditRequestBodyStatus | Unset):
     """

    answer: str
    evidence_ids: list[str] | Unset = UNSET
    status: AnswerAuditRequestBodyStatus | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        answer = self.answer

        evidence_ids: list[str] | Unset = UNSET
        if not isinstance(self.evidence_ids, Unset):
            evidence_ids = self.evidence_ids



        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value



        field_dict: dict[str, Any] = {}

        field_dict.update({
            "answer": answer,
        })
        if evidence_ids is not UNSET:
            field_dict["evidence_ids"] = evidence_ids
        if status is not UNSET:
            field_dict["status"] = status

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        answer = d.pop("answer")

        evidence_ids = cast(list[str], d.pop("evidence_ids", UNSET))


        _status = d.pop("status", UNSET)
        status: AnswerAuditRequestBodyStatus | Unset
        if isinstance(_status,  Unset):
            status = UNSET
        else:
            status = AnswerAuditRequestBodyStatus(_status)




        answer_audit_request_body = cls(
            answer=answer,
            evidence_ids=evidence_ids,
            status=status,
        )

        return answer_audit_request_body

