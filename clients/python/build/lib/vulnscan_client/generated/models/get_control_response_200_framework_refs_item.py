from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="GetControlResponse200FrameworkRefsItem")



@_attrs_define
class GetControlResponse200FrameworkRefsItem:
    """ 
        Attributes:
            framework (str | Unset):
            control_ref (str | Unset): e.g. `CC6.1`, `A.8.8`, `6.3.3`
     """

    framework: str | Unset = UNSET
    control_ref: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        framework = self.framework

        control_ref = self.control_ref


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
        })
        if framework is not UNSET:
            field_dict["framework"] = framework
        if control_ref is not UNSET:
            field_dict["control_ref"] = control_ref

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        framework = d.pop("framework", UNSET)

        control_ref = d.pop("control_ref", UNSET)

        get_control_response_200_framework_refs_item = cls(
            framework=framework,
            control_ref=control_ref,
        )


        get_control_response_200_framework_refs_item.additional_properties = d
        return get_control_response_200_framework_refs_item

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
