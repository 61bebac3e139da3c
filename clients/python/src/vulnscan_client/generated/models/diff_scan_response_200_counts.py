from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="DiffScanResponse200Counts")



@_attrs_define
class DiffScanResponse200Counts:
    """ 
        Attributes:
            new (int):
            fixed (int):
            regressed (int):
            unchanged (int):
            not_covered (int):
     """

    new: int
    fixed: int
    regressed: int
    unchanged: int
    not_covered: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        new = self.new

        fixed = self.fixed

        regressed = self.regressed

        unchanged = self.unchanged

        not_covered = self.not_covered


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "new": new,
            "fixed": fixed,
            "regressed": regressed,
            "unchanged": unchanged,
            "not_covered": not_covered,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        new = d.pop("new")

        fixed = d.pop("fixed")

        regressed = d.pop("regressed")

        unchanged = d.pop("unchanged")

        not_covered = d.pop("not_covered")

        diff_scan_response_200_counts = cls(
            new=new,
            fixed=fixed,
            regressed=regressed,
            unchanged=unchanged,
            not_covered=not_covered,
        )


        diff_scan_response_200_counts.additional_properties = d
        return diff_scan_response_200_counts

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
