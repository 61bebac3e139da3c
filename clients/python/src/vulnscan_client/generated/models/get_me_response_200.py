from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.get_me_response_200_organization import GetMeResponse200Organization





T = TypeVar("T", bound="GetMeResponse200")



@_attrs_define
class GetMeResponse200:
    """ 
        Attributes:
            id (str): `user_<id>`
            email (str):
            mfa_enabled (bool):
            recovery_codes_remaining (int): Unused recovery codes; 0 while MFA is off
            created_at (datetime.datetime):
            last_login_at (datetime.datetime | None):
            organization (GetMeResponse200Organization):
     """

    id: str
    email: str
    mfa_enabled: bool
    recovery_codes_remaining: int
    created_at: datetime.datetime
    last_login_at: datetime.datetime | None
    organization: GetMeResponse200Organization
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.get_me_response_200_organization import GetMeResponse200Organization # noqa: PLC0415
        id = self.id

        email = self.email

        mfa_enabled = self.mfa_enabled

        recovery_codes_remaining = self.recovery_codes_remaining

        created_at = self.created_at.isoformat()

        last_login_at: None | str
        if isinstance(self.last_login_at, datetime.datetime):
            last_login_at = self.last_login_at.isoformat()
        else:
            last_login_at = self.last_login_at

        organization = self.organization.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "email": email,
            "mfa_enabled": mfa_enabled,
            "recovery_codes_remaining": recovery_codes_remaining,
            "created_at": created_at,
            "last_login_at": last_login_at,
            "organization": organization,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.get_me_response_200_organization import GetMeResponse200Organization # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        email = d.pop("email")

        mfa_enabled = d.pop("mfa_enabled")

        recovery_codes_remaining = d.pop("recovery_codes_remaining")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        def _parse_last_login_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_login_at_type_0 = datetime.datetime.fromisoformat(data)



                return last_login_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_login_at = _parse_last_login_at(d.pop("last_login_at"))


        organization = GetMeResponse200Organization.from_dict(d.pop("organization"))




        get_me_response_200 = cls(
            id=id,
            email=email,
            mfa_enabled=mfa_enabled,
            recovery_codes_remaining=recovery_codes_remaining,
            created_at=created_at,
            last_login_at=last_login_at,
            organization=organization,
        )


        get_me_response_200.additional_properties = d
        return get_me_response_200

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
