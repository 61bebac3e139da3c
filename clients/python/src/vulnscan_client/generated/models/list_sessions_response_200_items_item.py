from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime






T = TypeVar("T", bound="ListSessionsResponse200ItemsItem")



@_attrs_define
class ListSessionsResponse200ItemsItem:
    """ 
        Attributes:
            id (str): `session_<id>`
            created_at (datetime.datetime):
            last_used_at (datetime.datetime):
            expires_at (datetime.datetime):
            ip (str):
            user_agent (str):
            current (bool): true for the session of the token making this request
     """

    id: str
    created_at: datetime.datetime
    last_used_at: datetime.datetime
    expires_at: datetime.datetime
    ip: str
    user_agent: str
    current: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        created_at = self.created_at.isoformat()

        last_used_at = self.last_used_at.isoformat()

        expires_at = self.expires_at.isoformat()

        ip = self.ip

        user_agent = self.user_agent

        current = self.current


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "created_at": created_at,
            "last_used_at": last_used_at,
            "expires_at": expires_at,
            "ip": ip,
            "user_agent": user_agent,
            "current": current,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        last_used_at = datetime.datetime.fromisoformat(d.pop("last_used_at"))




        expires_at = datetime.datetime.fromisoformat(d.pop("expires_at"))




        ip = d.pop("ip")

        user_agent = d.pop("user_agent")

        current = d.pop("current")

        list_sessions_response_200_items_item = cls(
            id=id,
            created_at=created_at,
            last_used_at=last_used_at,
            expires_at=expires_at,
            ip=ip,
            user_agent=user_agent,
            current=current,
        )


        list_sessions_response_200_items_item.additional_properties = d
        return list_sessions_response_200_items_item

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
