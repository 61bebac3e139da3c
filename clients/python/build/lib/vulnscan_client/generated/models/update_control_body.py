from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.update_control_body_status import UpdateControlBodyStatus
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="UpdateControlBody")



@_attrs_define
class UpdateControlBody:
    """ 
        Attributes:
            status (UpdateControlBodyStatus | Unset):
            owner (None | str | Unset):
            notes (str | Unset):
     """

    status: UpdateControlBodyStatus | Unset = UNSET
    owner: None | str | Unset = UNSET
    notes: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value


        owner: None | str | Unset
        if isinstance(self.owner, Unset):
            owner = UNSET
        else:
            owner = self.owner

        notes = self.notes


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if status is not UNSET:
            field_dict["status"] = status
        if owner is not UNSET:
            field_dict["owner"] = owner
        if notes is not UNSET:
            field_dict["notes"] = notes

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        _status = d.pop("status", UNSET)
        status: UpdateControlBodyStatus | Unset
        if isinstance(_status,  Unset):
            status = UNSET
        else:
            status = UpdateControlBodyStatus(_status)




        def _parse_owner(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        owner = _parse_owner(d.pop("owner", UNSET))


        notes = d.pop("notes", UNSET)

        update_control_body = cls(
            status=status,
            owner=owner,
            notes=notes,
        )

        return update_control_body

