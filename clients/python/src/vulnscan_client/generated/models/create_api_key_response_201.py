from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.create_api_key_response_201_permissions_item import CreateApiKeyResponse201PermissionsItem
from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="CreateApiKeyResponse201")



@_attrs_define
class CreateApiKeyResponse201:
    """ 
        Attributes:
            id (str): `apikey_<id>`
            name (str):
            prefix (str): First characters of the key, to recognise it
            permissions (list[CreateApiKeyResponse201PermissionsItem]):
            created_at (datetime.datetime):
            revoked (bool):
            key (str):
            expires_at (datetime.datetime | None | Unset):
            last_used_at (datetime.datetime | None | Unset):
     """

    id: str
    name: str
    prefix: str
    permissions: list[CreateApiKeyResponse201PermissionsItem]
    created_at: datetime.datetime
    revoked: bool
    key: str
    expires_at: datetime.datetime | None | Unset = UNSET
    last_used_at: datetime.datetime | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        prefix = self.prefix

        permissions = []
        for permissions_item_data in self.permissions:
            permissions_item = permissions_item_data.value
            permissions.append(permissions_item)



        created_at = self.created_at.isoformat()

        revoked = self.revoked

        key = self.key

        expires_at: None | str | Unset
        if isinstance(self.expires_at, Unset):
            expires_at = UNSET
        elif isinstance(self.expires_at, datetime.datetime):
            expires_at = self.expires_at.isoformat()
        else:
            expires_at = self.expires_at

        last_used_at: None | str | Unset
        if isinstance(self.last_used_at, Unset):
            last_used_at = UNSET
        elif isinstance(self.last_used_at, datetime.datetime):
            last_used_at = self.last_used_at.isoformat()
        else:
            last_used_at = self.last_used_at


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "name": name,
            "prefix": prefix,
            "permissions": permissions,
            "created_at": created_at,
            "revoked": revoked,
            "key": key,
        })
        if expires_at is not UNSET:
            field_dict["expires_at"] = expires_at
        if last_used_at is not UNSET:
            field_dict["last_used_at"] = last_used_at

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        prefix = d.pop("prefix")

        permissions = []
        _permissions = d.pop("permissions")
        for permissions_item_data in (_permissions):
            permissions_item = CreateApiKeyResponse201PermissionsItem(permissions_item_data)



            permissions.append(permissions_item)


        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        revoked = d.pop("revoked")

        key = d.pop("key")

        def _parse_expires_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                expires_at_type_0 = datetime.datetime.fromisoformat(data)



                return expires_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        expires_at = _parse_expires_at(d.pop("expires_at", UNSET))


        def _parse_last_used_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_used_at_type_0 = datetime.datetime.fromisoformat(data)



                return last_used_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        last_used_at = _parse_last_used_at(d.pop("last_used_at", UNSET))


        create_api_key_response_201 = cls(
            id=id,
            name=name,
            prefix=prefix,
            permissions=permissions,
            created_at=created_at,
            revoked=revoked,
            key=key,
            expires_at=expires_at,
            last_used_at=last_used_at,
        )


        create_api_key_response_201.additional_properties = d
        return create_api_key_response_201

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
