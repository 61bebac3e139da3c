from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="GetFindingStatsResponse200ByStatus")



@_attrs_define
class GetFindingStatsResponse200ByStatus:
    """ 
        Attributes:
            open_ (int):
            in_progress (int):
            resolved (int):
            false_positive (int):
            accepted (int):
     """

    open_: int
    in_progress: int
    resolved: int
    false_positive: int
    accepted: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        open_ = self.open_

        in_progress = self.in_progress

        resolved = self.resolved

        false_positive = self.false_positive

        accepted = self.accepted


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "open": open_,
            "in_progress": in_progress,
            "resolved": resolved,
            "false_positive": false_positive,
            "accepted": accepted,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        open_ = d.pop("open")

        in_progress = d.pop("in_progress")

        resolved = d.pop("resolved")

        false_positive = d.pop("false_positive")

        accepted = d.pop("accepted")

        get_finding_stats_response_200_by_status = cls(
            open_=open_,
            in_progress=in_progress,
            resolved=resolved,
            false_positive=false_positive,
            accepted=accepted,
        )


        get_finding_stats_response_200_by_status.additional_properties = d
        return get_finding_stats_response_200_by_status

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
