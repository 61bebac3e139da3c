from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.update_finding_response_200_status import UpdateFindingResponse200Status
from typing import cast
import datetime






T = TypeVar("T", bound="UpdateFindingResponse200")



@_attrs_define
class UpdateFindingResponse200:
    """ 
        Attributes:
            id (str):
            status (UpdateFindingResponse200Status):
            assignee (None | str):
            updated_at (datetime.datetime):
     """

    id: str
    status: UpdateFindingResponse200Status
    assignee: None | str
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        status = self.status.value

        assignee: None | str
        assignee = self.assignee

        updated_at = self.updated_at.isoformat()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "status": status,
            "assignee": assignee,
            "updated_at": updated_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        status = UpdateFindingResponse200Status(d.pop("status"))




        def _parse_assignee(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        assignee = _parse_assignee(d.pop("assignee"))


        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))




        update_finding_response_200 = cls(
            id=id,
            status=status,
            assignee=assignee,
            updated_at=updated_at,
        )


        update_finding_response_200.additional_properties = d
        return update_finding_response_200

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
