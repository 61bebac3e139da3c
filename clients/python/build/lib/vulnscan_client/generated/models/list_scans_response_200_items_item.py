from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.list_scans_response_200_items_item_scan_type import ListScansResponse200ItemsItemScanType
from ..models.list_scans_response_200_items_item_status import ListScansResponse200ItemsItemStatus
from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="ListScansResponse200ItemsItem")



@_attrs_define
class ListScansResponse200ItemsItem:
    """ 
        Attributes:
            id (str): `scan_<id>`
            target (str):
            scan_type (ListScansResponse200ItemsItemScanType):
            status (ListScansResponse200ItemsItemStatus):
            progress (int):
            phase (str): Current phase; `complete` when finished; empty while pending
            created_at (datetime.datetime):
            vulnerabilities_found (int):
            critical_count (int):
            high_count (int):
            medium_count (int):
            low_count (int):
            completed_at (datetime.datetime | Unset): Present once completed
     """

    id: str
    target: str
    scan_type: ListScansResponse200ItemsItemScanType
    status: ListScansResponse200ItemsItemStatus
    progress: int
    phase: str
    created_at: datetime.datetime
    vulnerabilities_found: int
    critical_count: int
    high_count: int
    medium_count: int
    low_count: int
    completed_at: datetime.datetime | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        target = self.target

        scan_type = self.scan_type.value

        status = self.status.value

        progress = self.progress

        phase = self.phase

        created_at = self.created_at.isoformat()

        vulnerabilities_found = self.vulnerabilities_found

        critical_count = self.critical_count

        high_count = self.high_count

        medium_count = self.medium_count

        low_count = self.low_count

        completed_at: str | Unset = UNSET
        if not isinstance(self.completed_at, Unset):
            completed_at = self.completed_at.isoformat()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "target": target,
            "scan_type": scan_type,
            "status": status,
            "progress": progress,
            "phase": phase,
            "created_at": created_at,
            "vulnerabilities_found": vulnerabilities_found,
            "critical_count": critical_count,
            "high_count": high_count,
            "medium_count": medium_count,
            "low_count": low_count,
        })
        if completed_at is not UNSET:
            field_dict["completed_at"] = completed_at

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        target = d.pop("target")

        scan_type = ListScansResponse200ItemsItemScanType(d.pop("scan_type"))




        status = ListScansResponse200ItemsItemStatus(d.pop("status"))




        progress = d.pop("progress")

        phase = d.pop("phase")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        vulnerabilities_found = d.pop("vulnerabilities_found")

        critical_count = d.pop("critical_count")

        high_count = d.pop("high_count")

        medium_count = d.pop("medium_count")

        low_count = d.pop("low_count")

        _completed_at = d.pop("completed_at", UNSET)
        completed_at: datetime.datetime | Unset
        if isinstance(_completed_at,  Unset):
            completed_at = UNSET
        else:
            completed_at = datetime.datetime.fromisoformat(_completed_at)




        list_scans_response_200_items_item = cls(
            id=id,
            target=target,
            scan_type=scan_type,
            status=status,
            progress=progress,
            phase=phase,
            created_at=created_at,
            vulnerabilities_found=vulnerabilities_found,
            critical_count=critical_count,
            high_count=high_count,
            medium_count=medium_count,
            low_count=low_count,
            completed_at=completed_at,
        )


        list_scans_response_200_items_item.additional_properties = d
        return list_scans_response_200_items_item

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
