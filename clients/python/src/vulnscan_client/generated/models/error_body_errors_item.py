from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="ErrorBodyErrorsItem")



@_attrs_define
class ErrorBodyErrorsItem:
    """ 
        Attributes:
            detail (str): What is wrong with it, in plain words
            error_code (str): VALIDATION_ERROR
            field (str | Unset): The request field at fault, as a dotted path (`update.status`, `finding_ids.3`)
     """

    detail: str
    error_code: str
    field: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        detail = self.detail

        error_code = self.error_code

        field = self.field


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "detail": detail,
            "error_code": error_code,
        })
        if field is not UNSET:
            field_dict["field"] = field

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        detail = d.pop("detail")

        error_code = d.pop("error_code")

        field = d.pop("field", UNSET)

        error_body_errors_item = cls(
            detail=detail,
            error_code=error_code,
            field=field,
        )


        error_body_errors_item.additional_properties = d
        return error_body_errors_item

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
