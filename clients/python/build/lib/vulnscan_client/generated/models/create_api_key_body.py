from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.create_api_key_body_permissions_item import CreateApiKeyBodyPermissionsItem
from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="CreateApiKeyBody")



@_attrs_define
class CreateApiKeyBody:
    """ 
        Attributes:
            name (str):
            permissions (list[CreateApiKeyBodyPermissionsItem]):
            expires_at (datetime.datetime | Unset): Optional expiry, in the future
     """

    name: str
    permissions: list[CreateApiKeyBodyPermissionsItem]
    expires_at: datetime.datetime | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        name = self.name

        permissions = []
        for permissions_item_data in self.permissions:
            permissions_item = permissions_item_data.value
            permissions.append(permissions_item)



        expires_at: str | Unset = UNSET
        if not isinstance(self.expires_at, Unset):
            expires_at = self.expires_at.isoformat()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "name": name,
            "permissions": permissions,
        })
        if expires_at is not UNSET:
            field_dict["expires_at"] = expires_at

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        permissions = []
        _permissions = d.pop("permissions")
        for permissions_item_data in (_permissions):
            permissions_item = CreateApiKeyBodyPermissionsItem(permissions_item_data)



            permissions.append(permissions_item)


        _expires_at = d.pop("expires_at", UNSET)
        expires_at: datetime.datetime | Unset
        if isinstance(_expires_at,  Unset):
            expires_at = UNSET
        else:
            expires_at = datetime.datetime.fromisoformat(_expires_at)




        create_api_key_body = cls(
            name=name,
            permissions=permissions,
            expires_at=expires_at,
        )

        return create_api_key_body

