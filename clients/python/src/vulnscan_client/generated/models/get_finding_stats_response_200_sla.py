from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="GetFindingStatsResponse200Sla")



@_attrs_define
class GetFindingStatsResponse200Sla:
    """ Open and in-progress findings past their due date, and in its last 20 %, right now (added to the spec's fields)

        Attributes:
            breached (int):
            at_risk (int):
     """

    breached: int
    at_risk: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        breached = self.breached

        at_risk = self.at_risk


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "breached": breached,
            "at_risk": at_risk,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        breached = d.pop("breached")

        at_risk = d.pop("at_risk")

        get_finding_stats_response_200_sla = cls(
            breached=breached,
            at_risk=at_risk,
        )


        get_finding_stats_response_200_sla.additional_properties = d
        return get_finding_stats_response_200_sla

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
