from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="RegenerateRecoveryCodesBody")



@_attrs_define
class RegenerateRecoveryCodesBody:
    """ 
        Attributes:
            code (str): A current 6-digit TOTP code, or one of your unused recovery codes (`xxxx-xxxx-xxxx-xxxx`)
     """

    code: str





    def to_dict(self) -> dict[str, Any]:
        code = self.code


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "code": code,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        code = d.pop("code")

        regenerate_recovery_codes_body = cls(
            code=code,
        )

        return regenerate_recovery_codes_body

