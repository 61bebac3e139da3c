from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.create_token_response_200_token_type import CreateTokenResponse200TokenType






T = TypeVar("T", bound="CreateTokenResponse200")



@_attrs_define
class CreateTokenResponse200:
    """ 
        Attributes:
            access_token (str): JWT (ES256); send as `Authorization: Bearer <token>`
            token_type (CreateTokenResponse200TokenType):
            expires_in (int): Seconds until expiry (3600)
     """

    access_token: str
    token_type: CreateTokenResponse200TokenType
    expires_in: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        access_token = self.access_token

        token_type = self.token_type.value

        expires_in = self.expires_in


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "access_token": access_token,
            "token_type": token_type,
            "expires_in": expires_in,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        access_token = d.pop("access_token")

        token_type = CreateTokenResponse200TokenType(d.pop("token_type"))




        expires_in = d.pop("expires_in")

        create_token_response_200 = cls(
            access_token=access_token,
            token_type=token_type,
            expires_in=expires_in,
        )


        create_token_response_200.additional_properties = d
        return create_token_response_200

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
