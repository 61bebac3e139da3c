from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="RetestFindingResponse202Check")



@_attrs_define
class RetestFindingResponse202Check:
    """ The one check that ran, and where

        Attributes:
            template_id (str):
            tool (str):
            affected_component (str):
            port (int):
     """

    template_id: str
    tool: str
    affected_component: str
    port: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        template_id = self.template_id

        tool = self.tool

        affected_component = self.affected_component

        port = self.port


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "template_id": template_id,
            "tool": tool,
            "affected_component": affected_component,
            "port": port,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        template_id = d.pop("template_id")

        tool = d.pop("tool")

        affected_component = d.pop("affected_component")

        port = d.pop("port")

        retest_finding_response_202_check = cls(
            template_id=template_id,
            tool=tool,
            affected_component=affected_component,
            port=port,
        )


        retest_finding_response_202_check.additional_properties = d
        return retest_finding_response_202_check

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
