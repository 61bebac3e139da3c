from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="CreateWebhookResponse201")



@_attrs_define
class CreateWebhookResponse201:
    """ 
        Attributes:
            id (str): `webhook_<id>`
            name (str):
            url (str):
            events (list[str]):
            active (bool):
            created_at (datetime.datetime):
            has_secret (bool): A signing secret is set (the secret itself is write-only)
            updated_at (datetime.datetime | Unset):
            disabled_reason (str | Unset): Why the dispatcher disabled it; absent otherwise
     """

    id: str
    name: str
    url: str
    events: list[str]
    active: bool
    created_at: datetime.datetime
    has_secret: bool
    updated_at: datetime.datetime | Unset = UNSET
    disabled_reason: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        url = self.url

        events = self.events



        active = self.active

        created_at = self.created_at.isoformat()

        has_secret = self.has_secret

        updated_at: str | Unset = UNSET
        if not isinstance(self.updated_at, Unset):
            updated_at = self.updated_at.isoformat()

        disabled_reason = self.disabled_reason


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "name": name,
            "url": url,
            "events": events,
            "active": active,
            "created_at": created_at,
            "has_secret": has_secret,
        })
        if updated_at is not UNSET:
            field_dict["updated_at"] = updated_at
        if disabled_reason is not UNSET:
            field_dict["disabled_reason"] = disabled_reason

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        url = d.pop("url")

        events = cast(list[str], d.pop("events"))


        active = d.pop("active")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        has_secret = d.pop("has_secret")

        _updated_at = d.pop("updated_at", UNSET)
        updated_at: datetime.datetime | Unset
        if isinstance(_updated_at,  Unset):
            updated_at = UNSET
        else:
            updated_at = datetime.datetime.fromisoformat(_updated_at)




        disabled_reason = d.pop("disabled_reason", UNSET)

        create_webhook_response_201 = cls(
            id=id,
            name=name,
            url=url,
            events=events,
            active=active,
            created_at=created_at,
            has_secret=has_secret,
            updated_at=updated_at,
            disabled_reason=disabled_reason,
        )


        create_webhook_response_201.additional_properties = d
        return create_webhook_response_201

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
