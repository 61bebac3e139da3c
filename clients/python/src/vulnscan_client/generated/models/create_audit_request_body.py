from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.create_audit_request_body_framework import CreateAuditRequestBodyFramework
from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="CreateAuditRequestBody")



@_attrs_define
class CreateAuditRequestBody:
    """ 
        Attributes:
            framework (CreateAuditRequestBodyFramework):
            title (str):
            description (str | Unset):
            control_ids (list[str] | Unset):
            requested_by (str | Unset): Auditor's name or email; default: you
            due_date (datetime.datetime | Unset):
     """

    framework: CreateAuditRequestBodyFramework
    title: str
    description: str | Unset = UNSET
    control_ids: list[str] | Unset = UNSET
    requested_by: str | Unset = UNSET
    due_date: datetime.datetime | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        framework = self.framework.value

        title = self.title

        description = self.description

        control_ids: list[str] | Unset = UNSET
        if not isinstance(self.control_ids, Unset):
            control_ids = self.control_ids



        requested_by = self.requested_by

        due_date: str | Unset = UNSET
        if not isinstance(self.due_date, Unset):
            due_date = self.due_date.isoformat()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "framework": framework,
            "title": title,
        })
        if description is not UNSET:
            field_dict["description"] = description
        if control_ids is not UNSET:
            field_dict["control_ids"] = control_ids
        if requested_by is not UNSET:
            field_dict["requested_by"] = requested_by
        if due_date is not UNSET:
            field_dict["due_date"] = due_date

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        framework = CreateAuditRequestBodyFramework(d.pop("framework"))




        title = d.pop("title")

        description = d.pop("description", UNSET)

        control_ids = cast(list[str], d.pop("control_ids", UNSET))


        requested_by = d.pop("requested_by", UNSET)

        _due_date = d.pop("due_date", UNSET)
        due_date: datetime.datetime | Unset
        if isinstance(_due_date,  Unset):
            due_date = UNSET
        else:
            due_date = datetime.datetime.fromisoformat(_due_date)




        create_audit_request_body = cls(
            framework=framework,
            title=title,
            description=description,
            control_ids=control_ids,
            requested_by=requested_by,
            due_date=due_date,
        )

        return create_audit_request_body

