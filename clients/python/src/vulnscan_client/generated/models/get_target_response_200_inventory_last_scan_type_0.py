from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.get_target_response_200_inventory_last_scan_type_0_status import GetTargetResponse200InventoryLastScanType0Status
from typing import cast
import datetime






T = TypeVar("T", bound="GetTargetResponse200InventoryLastScanType0")



@_attrs_define
class GetTargetResponse200InventoryLastScanType0:
    """ The latest scan that ended whose target overlaps this one; null when none has

        Attributes:
            scan_id (str):
            status (GetTargetResponse200InventoryLastScanType0Status):
            ended_at (datetime.datetime):
     """

    scan_id: str
    status: GetTargetResponse200InventoryLastScanType0Status
    ended_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        scan_id = self.scan_id

        status = self.status.value

        ended_at = self.ended_at.isoformat()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "scan_id": scan_id,
            "status": status,
            "ended_at": ended_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        scan_id = d.pop("scan_id")

        status = GetTargetResponse200InventoryLastScanType0Status(d.pop("status"))




        ended_at = datetime.datetime.fromisoformat(d.pop("ended_at"))




        get_target_response_200_inventory_last_scan_type_0 = cls(
            scan_id=scan_id,
            status=status,
            ended_at=ended_at,
        )


        get_target_response_200_inventory_last_scan_type_0.additional_properties = d
        return get_target_response_200_inventory_last_scan_type_0

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
