from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.verify_target_body_method import VerifyTargetBodyMethod
from ..types import UNSET, Unset






T = TypeVar("T", bound="VerifyTargetBody")



@_attrs_define
class VerifyTargetBody:
    """ 
        Attributes:
            method (VerifyTargetBodyMethod | Unset): One method; absent tries each the target allows
     """

    method: VerifyTargetBodyMethod | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        method: str | Unset = UNSET
        if not isinstance(self.method, Unset):
            method = self.method.value



        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if method is not UNSET:
            field_dict["method"] = method

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        _method = d.pop("method", UNSET)
        method: VerifyTargetBodyMethod | Unset
        if isinstance(_method,  Unset):
            method = UNSET
        else:
            method = VerifyTargetBodyMethod(_method)




        verify_target_body = cls(
            method=method,
        )

        return verify_target_body

