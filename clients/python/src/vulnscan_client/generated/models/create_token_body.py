from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.create_token_body_grant_type import CreateTokenBodyGrantType
from ..types import UNSET, Unset






T = TypeVar("T", bound="CreateTokenBody")



@_attrs_define
class CreateTokenBody:
    """ 
        Attributes:
            username (str):
            password (str):
            mfa_code (str | Unset): 6-digit TOTP code, or an unused recovery code (`xxxx-xxxx-xxxx-xxxx`)
            grant_type (CreateTokenBodyGrantType | Unset):
            scope (str | Unset):
            client_id (str | Unset):
            client_secret (str | Unset):
     """

    username: str
    password: str
    mfa_code: str | Unset = UNSET
    grant_type: CreateTokenBodyGrantType | Unset = UNSET
    scope: str | Unset = UNSET
    client_id: str | Unset = UNSET
    client_secret: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        username = self.username

        password = self.password

        mfa_code = self.mfa_code

        grant_type: str | Unset = UNSET
        if not isinstance(self.grant_type, Unset):
            grant_type = self.grant_type.value


        scope = self.scope

        client_id = self.client_id

        client_secret = self.client_secret


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "username": username,
            "password": password,
        })
        if mfa_code is not UNSET:
            field_dict["mfa_code"] = mfa_code
        if grant_type is not UNSET:
            field_dict["grant_type"] = grant_type
        if scope is not UNSET:
            field_dict["scope"] = scope
        if client_id is not UNSET:
            field_dict["client_id"] = client_id
        if client_secret is not UNSET:
            field_dict["client_secret"] = client_secret

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        username = d.pop("username")

        password = d.pop("password")

        mfa_code = d.pop("mfa_code", UNSET)

        _grant_type = d.pop("grant_type", UNSET)
        grant_type: CreateTokenBodyGrantType | Unset
        if isinstance(_grant_type,  Unset):
            grant_type = UNSET
        else:
            grant_type = CreateTokenBodyGrantType(_grant_type)




        scope = d.pop("scope", UNSET)

        client_id = d.pop("client_id", UNSET)

        client_secret = d.pop("client_secret", UNSET)

        create_token_body = cls(
            username=username,
            password=password,
            mfa_code=mfa_code,
            grant_type=grant_type,
            scope=scope,
            client_id=client_id,
            client_secret=client_secret,
        )

        return create_token_body

