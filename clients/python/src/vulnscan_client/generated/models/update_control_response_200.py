from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.update_control_response_200_set_status import UpdateControlResponse200SetStatus
from ..models.update_control_response_200_status import UpdateControlResponse200Status
from ..types import UNSET, Unset
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.update_control_response_200_framework_refs_item import UpdateControlResponse200FrameworkRefsItem





T = TypeVar("T", bound="UpdateControlResponse200")



@_attrs_define
class UpdateControlResponse200:
    """ 
        Attributes:
            status (UpdateControlResponse200Status): `failing` while open critical/high findings map to it
            frameworks (list[str]): Framework ids
            id (str): `ctrl_<id>`
            name (str):
            evidence_count (int): Clean, unexpired evidence items
            requirement (str | Unset): What the control asks for, one or two sentences written by vulnscan (a paraphrase,
                not the framework's text); empty when not written yet
            framework_refs (list[UpdateControlResponse200FrameworkRefsItem] | Unset):
            owner (None | str | Unset):
            last_tested_at (datetime.datetime | None | Unset):
            open_finding_count (int | Unset):
            set_status (UpdateControlResponse200SetStatus | Unset): The status people set; `status` shows it again once no
                open finding maps to the control
            notes (str | Unset):
            finding_ids (list[str] | Unset): Open critical/high findings that make it failing (at most 100)
            updated_at (datetime.datetime | None | Unset):
     """

    status: UpdateControlResponse200Status
    frameworks: list[str]
    id: str
    name: str
    evidence_count: int
    requirement: str | Unset = UNSET
    framework_refs: list[UpdateControlResponse200FrameworkRefsItem] | Unset = UNSET
    owner: None | str | Unset = UNSET
    last_tested_at: datetime.datetime | None | Unset = UNSET
    open_finding_count: int | Unset = UNSET
    set_status: UpdateControlResponse200SetStatus | Unset = UNSET
    notes: str | Unset = UNSET
    finding_ids: list[str] | Unset = UNSET
    updated_at: datetime.datetime | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.update_control_response_200_framework_refs_item import UpdateControlResponse200FrameworkRefsItem # noqa: PLC0415
        status = self.status.value

        frameworks = self.frameworks



        id = self.id

        name = self.name

        evidence_count = self.evidence_count

        requirement = self.requirement

        framework_refs: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.framework_refs, Unset):
            framework_refs = []
            for framework_refs_item_data in self.framework_refs:
                framework_refs_item = framework_refs_item_data.to_dict()
                framework_refs.append(framework_refs_item)



        owner: None | str | Unset
        if isinstance(self.owner, Unset):
            owner = UNSET
        else:
            owner = self.owner

        last_tested_at: None | str | Unset
        if isinstance(self.last_tested_at, Unset):
            last_tested_at = UNSET
        elif isinstance(self.last_tested_at, datetime.datetime):
            last_tested_at = self.last_tested_at.isoformat()
        else:
            last_tested_at = self.last_tested_at

        open_finding_count = self.open_finding_count

        set_status: str | Unset = UNSET
        if not isinstance(self.set_status, Unset):
            set_status = self.set_status.value


        notes = self.notes

        finding_ids: list[str] | Unset = UNSET
        if not isinstance(self.finding_ids, Unset):
            finding_ids = self.finding_ids



        updated_at: None | str | Unset
        if isinstance(self.updated_at, Unset):
            updated_at = UNSET
        elif isinstance(self.updated_at, datetime.datetime):
            updated_at = self.updated_at.isoformat()
        else:
            updated_at = self.updated_at


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "status": status,
            "frameworks": frameworks,
            "id": id,
            "name": name,
            "evidence_count": evidence_count,
        })
        if requirement is not UNSET:
            field_dict["requirement"] = requirement
        if framework_refs is not UNSET:
            field_dict["framework_refs"] = framework_refs
        if owner is not UNSET:
            field_dict["owner"] = owner
        if last_tested_at is not UNSET:
            field_dict["last_tested_at"] = last_tested_at
        if open_finding_count is not UNSET:
            field_dict["open_finding_count"] = open_finding_count
        if set_status is not UNSET:
            field_dict["set_status"] = set_status
        if notes is not UNSET:
            field_dict["notes"] = notes
        if finding_ids is not UNSET:
            field_dict["finding_ids"] = finding_ids
        if updated_at is not UNSET:
            field_dict["updated_at"] = updated_at

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.update_control_response_200_framework_refs_item import UpdateControlResponse200FrameworkRefsItem # noqa: PLC0415
        d = dict(src_dict)
        status = UpdateControlResponse200Status(d.pop("status"))




        frameworks = cast(list[str], d.pop("frameworks"))


        id = d.pop("id")

        name = d.pop("name")

        evidence_count = d.pop("evidence_count")

        requirement = d.pop("requirement", UNSET)

        _framework_refs = d.pop("framework_refs", UNSET)
        framework_refs: list[UpdateControlResponse200FrameworkRefsItem] | Unset = UNSET
        if _framework_refs is not UNSET:
            framework_refs = []
            for framework_refs_item_data in _framework_refs:
                framework_refs_item = UpdateControlResponse200FrameworkRefsItem.from_dict(framework_refs_item_data)



                framework_refs.append(framework_refs_item)


        def _parse_owner(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        owner = _parse_owner(d.pop("owner", UNSET))


        def _parse_last_tested_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_tested_at_type_0 = datetime.datetime.fromisoformat(data)



                return last_tested_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        last_tested_at = _parse_last_tested_at(d.pop("last_tested_at", UNSET))


        open_finding_count = d.pop("open_finding_count", UNSET)

        _set_status = d.pop("set_status", UNSET)
        set_status: UpdateControlResponse200SetStatus | Unset
        if isinstance(_set_status,  Unset):
            set_status = UNSET
        else:
            set_status = UpdateControlResponse200SetStatus(_set_status)




        notes = d.pop("notes", UNSET)

        finding_ids = cast(list[str], d.pop("finding_ids", UNSET))


        def _parse_updated_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                updated_at_type_0 = datetime.datetime.fromisoformat(data)



                return updated_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        updated_at = _parse_updated_at(d.pop("updated_at", UNSET))


        update_control_response_200 = cls(
            status=status,
            frameworks=frameworks,
            id=id,
            name=name,
            evidence_count=evidence_count,
            requirement=requirement,
            framework_refs=framework_refs,
            owner=owner,
            last_tested_at=last_tested_at,
            open_finding_count=open_finding_count,
            set_status=set_status,
            notes=notes,
            finding_ids=finding_ids,
            updated_at=updated_at,
        )


        update_control_response_200.additional_properties = d
        return update_control_response_200

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
