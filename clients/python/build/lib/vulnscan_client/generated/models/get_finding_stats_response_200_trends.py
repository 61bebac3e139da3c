from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="GetFindingStatsResponse200Trends")



@_attrs_define
class GetFindingStatsResponse200Trends:
    """ 
        Attributes:
            new_this_week (int):
            resolved_this_week (int):
            average_resolution_days (float): Mean days from detection to resolution over resolved findings; 0 when none
     """

    new_this_week: int
    resolved_this_week: int
    average_resolution_days: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        new_this_week = self.new_this_week

        resolved_this_week = self.resolved_this_week

        average_resolution_days = self.average_resolution_days


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "new_this_week": new_this_week,
            "resolved_this_week": resolved_this_week,
            "average_resolution_days": average_resolution_days,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        new_this_week = d.pop("new_this_week")

        resolved_this_week = d.pop("resolved_this_week")

        average_resolution_days = d.pop("average_resolution_days")

        get_finding_stats_response_200_trends = cls(
            new_this_week=new_this_week,
            resolved_this_week=resolved_this_week,
            average_resolution_days=average_resolution_days,
        )


        get_finding_stats_response_200_trends.additional_properties = d
        return get_finding_stats_response_200_trends

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
