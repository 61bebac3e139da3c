from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.revoke_session_response_200_status import RevokeSessionResponse200Status






T = TypeVar("T", bound="RevokeSessionResponse200")



@_attrs_define
class RevokeSessionResponse200:
    """ 
        Attributes:
            id (str):
            status (RevokeSessionResponse200Status):
            message (str):
     """

    id: str
    status: RevokeSessionResponse200Status
    message: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        status = self.status.value

        message = self.message


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "status": status,
            "message": message,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        status = RevokeSessionResponse200Status(d.pop("status"))




        message = d.pop("message")

        revoke_session_response_200 = cls(
            id=id,
            status=status,
            message=message,
        )


        revoke_session_response_200.additional_properties = d
        return revoke_session_response_200

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
