from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.get_scan_quota_response_200_plan import GetScanQuotaResponse200Plan
from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="GetScanQuotaResponse200")



@_attrs_define
class GetScanQuotaResponse200:
    """ 
        Attributes:
            plan (GetScanQuotaResponse200Plan):
            monthly_limit (int | None): null when the plan is unlimited
            used_this_month (int):
            remaining (int | None): null when the plan is unlimited
            resets_at (datetime.datetime):
            unlimited (bool | Unset):
     """

    plan: GetScanQuotaResponse200Plan
    monthly_limit: int | None
    used_this_month: int
    remaining: int | None
    resets_at: datetime.datetime
    unlimited: bool | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        plan = self.plan.value

        monthly_limit: int | None
        monthly_limit = self.monthly_limit

        used_this_month = self.used_this_month

        remaining: int | None
        remaining = self.remaining

        resets_at = self.resets_at.isoformat()

        unlimited = self.unlimited


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "plan": plan,
            "monthly_limit": monthly_limit,
            "used_this_month": used_this_month,
            "remaining": remaining,
            "resets_at": resets_at,
        })
        if unlimited is not UNSET:
            field_dict["unlimited"] = unlimited

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        plan = GetScanQuotaResponse200Plan(d.pop("plan"))




        def _parse_monthly_limit(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        monthly_limit = _parse_monthly_limit(d.pop("monthly_limit"))


        used_this_month = d.pop("used_this_month")

        def _parse_remaining(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        remaining = _parse_remaining(d.pop("remaining"))


        resets_at = datetime.datetime.fromisoformat(d.pop("resets_at"))




        unlimited = d.pop("unlimited", UNSET)

        get_scan_quota_response_200 = cls(
            plan=plan,
            monthly_limit=monthly_limit,
            used_this_month=used_this_month,
            remaining=remaining,
            resets_at=resets_at,
            unlimited=unlimited,
        )


        get_scan_quota_response_200.additional_properties = d
        return get_scan_quota_response_200

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
