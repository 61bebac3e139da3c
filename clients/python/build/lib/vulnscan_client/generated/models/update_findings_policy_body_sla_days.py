from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="UpdateFindingsPolicyBodySlaDays")



@_attrs_define
class UpdateFindingsPolicyBodySlaDays:
    """ Days from detection to the due date per severity; null = no deadline

        Attributes:
            critical (int | None):
            high (int | None):
            medium (int | None):
            low (int | None):
            info (int | None):
     """

    critical: int | None
    high: int | None
    medium: int | None
    low: int | None
    info: int | None





    def to_dict(self) -> dict[str, Any]:
        critical: int | None
        critical = self.critical

        high: int | None
        high = self.high

        medium: int | None
        medium = self.medium

        low: int | None
        low = self.low

        info: int | None
        info = self.info


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "critical": critical,
            "high": high,
            "medium": medium,
            "low": low,
            "info": info,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_critical(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        critical = _parse_critical(d.pop("critical"))


        def _parse_high(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        high = _parse_high(d.pop("high"))


        def _parse_medium(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        medium = _parse_medium(d.pop("medium"))


        def _parse_low(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        low = _parse_low(d.pop("low"))


        def _parse_info(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        info = _parse_info(d.pop("info"))


        update_findings_policy_body_sla_days = cls(
            critical=critical,
            high=high,
            medium=medium,
            low=low,
            info=info,
        )

        return update_findings_policy_body_sla_days

