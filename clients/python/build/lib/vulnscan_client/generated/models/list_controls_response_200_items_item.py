from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.list_controls_response_200_items_item_status import ListControlsResponse200ItemsItemStatus
from ..types import UNSET, Unset
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.list_controls_response_200_items_item_framework_refs_item import ListControlsResponse200ItemsItemFrameworkRefsItem





T = TypeVar("T", bound="ListControlsResponse200ItemsItem")



@_attrs_define
class ListControlsResponse200ItemsItem:
    """ 
        Attributes:
            status (ListControlsResponse200ItemsItemStatus): `failing` while open critical/high findings map to it
            frameworks (list[str]): Framework ids
            id (str): `ctrl_<id>`
            name (str):
            evidence_count (int): Clean, unexpired evidence items
            requirement (str | Unset): What the control asks for, one or two sentences written by vulnscan (a paraphrase,
                not the framework's text); empty when not written yet
            framework_refs (list[ListControlsResponse200ItemsItemFrameworkRefsItem] | Unset):
            owner (None | str | Unset):
            last_tested_at (datetime.datetime | None | Unset):
            open_finding_count (int | Unset):
     """

    status: ListControlsResponse200ItemsItemStatus
    frameworks: list[str]
    id: str
    name: str
    evidence_count: int
    requirement: str | Unset = UNSET
    framework_refs: list[ListControlsResponse200ItemsItemFrameworkRefsItem] | Unset = UNSET
    owner: None | str | Unset = UNSET
    last_tested_at: datetime.datetime | None | Unset = UNSET
    open_finding_count: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.list_controls_response_200_items_item_framework_refs_item import ListControlsResponse200ItemsItemFrameworkRefsItem # noqa: PLC0415
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

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.list_controls_response_200_items_item_framework_refs_item import ListControlsResponse200ItemsItemFrameworkRefsItem # noqa: PLC0415
        d = dict(src_dict)
        status = ListControlsResponse200ItemsItemStatus(d.pop("status"))




        frameworks = cast(list[str], d.pop("frameworks"))


        id = d.pop("id")

        name = d.pop("name")

        evidence_count = d.pop("evidence_count")

        requirement = d.pop("requirement", UNSET)

        _framework_refs = d.pop("framework_refs", UNSET)
        framework_refs: list[ListControlsResponse200ItemsItemFrameworkRefsItem] | Unset = UNSET
        if _framework_refs is not UNSET:
            framework_refs = []
            for framework_refs_item_data in _framework_refs:
                framework_refs_item = ListControlsResponse200ItemsItemFrameworkRefsItem.from_dict(framework_refs_item_data)



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

        list_controls_response_200_items_item = cls(
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
        )


        list_controls_response_200_items_item.additional_properties = d
        return list_controls_response_200_items_item

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
