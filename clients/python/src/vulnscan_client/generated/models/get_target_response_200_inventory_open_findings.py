from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="GetTargetResponse200InventoryOpenFindings")



@_attrs_define
class GetTargetResponse200InventoryOpenFindings:
    """ Open and in-progress findings by severity

        Attributes:
            critical (int):
            high (int):
            medium (int):
            low (int):
            info (int):
            total (int):
     """

    critical: int
    high: int
    medium: int
    low: int
    info: int
    total: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        critical = self.critical

        high = self.high

        medium = self.medium

        low = self.low

        info = self.info

        total = self.total


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "critical": critical,
            "high": high,
            "medium": medium,
            "low": low,
            "info": info,
            "total": total,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        critical = d.pop("critical")

        high = d.pop("high")

        medium = d.pop("medium")

        low = d.pop("low")

        info = d.pop("info")

        total = d.pop("total")

        get_target_response_200_inventory_open_findings = cls(
            critical=critical,
            high=high,
            medium=medium,
            low=low,
            info=info,
            total=total,
        )


        get_target_response_200_inventory_open_findings.additional_properties = d
        return get_target_response_200_inventory_open_findings

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
