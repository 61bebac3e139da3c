from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.answer_audit_request_response_200_framework import AnswerAuditRequestResponse200Framework
from ..models.answer_audit_request_response_200_status import AnswerAuditRequestResponse200Status
from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="AnswerAuditRequestResponse200")



@_attrs_define
class AnswerAuditRequestResponse200:
    """ 
        Attributes:
            id (str): `audit_<id>`
            framework (AnswerAuditRequestResponse200Framework):
            title (str):
            status (AnswerAuditRequestResponse200Status):
            created_at (datetime.datetime):
            control_ids (list[str] | Unset):
            description (str | Unset):
            requested_by (str | Unset):
            due_date (datetime.datetime | None | Unset):
            answer (None | str | Unset):
            answered_by (None | str | Unset):
            answered_at (datetime.datetime | None | Unset):
            evidence_ids (list[str] | Unset):
     """

    id: str
    framework: AnswerAuditRequestResponse200Framework
    title: str
    status: AnswerAuditRequestResponse200Status
    created_at: datetime.datetime
    control_ids: list[str] | Unset = UNSET
    description: str | Unset = UNSET
    requested_by: str | Unset = UNSET
    due_date: datetime.datetime | None | Unset = UNSET
    answer: None | str | Unset = UNSET
    answered_by: None | str | Unset = UNSET
    answered_at: datetime.datetime | None | Unset = UNSET
    evidence_ids: list[str] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        framework = self.framework.value

        title = self.title

        status = self.status.value

        created_at = self.created_at.isoformat()

        control_ids: list[str] | Unset = UNSET
        if not isinstance(self.control_ids, Unset):
            control_ids = self.control_ids



        description = self.description

        requested_by = self.requested_by

        due_date: None | str | Unset
        if isinstance(self.due_date, Unset):
            due_date = UNSET
        elif isinstance(self.due_date, datetime.datetime):
            due_date = self.due_date.isoformat()
        else:
            due_date = self.due_date

        answer: None | str | Unset
        if isinstance(self.answer, Unset):
            answer = UNSET
        else:
            answer = self.answer

        answered_by: None | str | Unset
        if isinstance(self.answered_by, Unset):
            answered_by = UNSET
        else:
            answered_by = self.answered_by

        answered_at: None | str | Unset
        if isinstance(self.answered_at, Unset):
            answered_at = UNSET
        elif isinstance(self.answered_at, datetime.datetime):
            answered_at = self.answered_at.isoformat()
        else:
            answered_at = self.answered_at

        evidence_ids: list[str] | Unset = UNSET
        if not isinstance(self.evidence_ids, Unset):
            evidence_ids = self.evidence_ids




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "framework": framework,
            "title": title,
            "status": status,
            "created_at": created_at,
        })
        if control_ids is not UNSET:
            field_dict["control_ids"] = control_ids
        if description is not UNSET:
            field_dict["description"] = description
        if requested_by is not UNSET:
            field_dict["requested_by"] = requested_by
        if due_date is not UNSET:
            field_dict["due_date"] = due_date
        if answer is not UNSET:
            field_dict["answer"] = answer
        if answered_by is not UNSET:
            field_dict["answered_by"] = answered_by
        if answered_at is not UNSET:
            field_dict["answered_at"] = answered_at
        if evidence_ids is not UNSET:
            field_dict["evidence_ids"] = evidence_ids

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        framework = AnswerAuditRequestResponse200Framework(d.pop("framework"))




        title = d.pop("title")

        status = AnswerAuditRequestResponse200Status(d.pop("status"))




        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        control_ids = cast(list[str], d.pop("control_ids", UNSET))


        description = d.pop("description", UNSET)

        requested_by = d.pop("requested_by", UNSET)

        def _parse_due_date(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                due_date_type_0 = datetime.datetime.fromisoformat(data)



                return due_date_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        due_date = _parse_due_date(d.pop("due_date", UNSET))


        def _parse_answer(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        answer = _parse_answer(d.pop("answer", UNSET))


        def _parse_answered_by(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        answered_by = _parse_answered_by(d.pop("answered_by", UNSET))


        def _parse_answered_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                answered_at_type_0 = datetime.datetime.fromisoformat(data)



                return answered_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        answered_at = _parse_answered_at(d.pop("answered_at", UNSET))


        evidence_ids = cast(list[str], d.pop("evidence_ids", UNSET))


        answer_audit_request_response_200 = cls(
            id=id,
            framework=framework,
            title=title,
            status=status,
            created_at=created_at,
            control_ids=control_ids,
            description=description,
            requested_by=requested_by,
            due_date=due_date,
            answer=answer,
            answered_by=answered_by,
            answered_at=answered_at,
            evidence_ids=evidence_ids,
        )


        answer_audit_request_response_200.additional_properties = d
        return answer_audit_request_response_200

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
