from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.get_scan_response_200_phases_completed_item import GetScanResponse200PhasesCompletedItem
from ..models.get_scan_response_200_phases_remaining_item import GetScanResponse200PhasesRemainingItem
from ..models.get_scan_response_200_scan_type import GetScanResponse200ScanType
from ..models.get_scan_response_200_status import GetScanResponse200Status
from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="GetScanResponse200")



@_attrs_define
class GetScanResponse200:
    """ 
        Attributes:
            id (str): `scan_<id>`
            target (str):
            scan_type (GetScanResponse200ScanType):
            status (GetScanResponse200Status):
            progress (int):
            phase (str): Current phase; `complete` when finished; empty while pending
            created_at (datetime.datetime):
            vulnerabilities_found (int):
            critical_count (int):
            high_count (int):
            medium_count (int):
            low_count (int):
            current_tool (str):
            phases_completed (list[GetScanResponse200PhasesCompletedItem]):
            phases_remaining (list[GetScanResponse200PhasesRemainingItem]):
            completed_at (datetime.datetime | Unset): Present once completed
            started_at (datetime.datetime | Unset):
            info_count (int | Unset):
            frameworks (list[str] | Unset):
            ports (str | Unset):
            estimated_duration (int | Unset): Seconds, estimated at creation
            error (str | Unset): Why the scan failed or was cancelled
     """

    id: str
    target: str
    scan_type: GetScanResponse200ScanType
    status: GetScanResponse200Status
    progress: int
    phase: str
    created_at: datetime.datetime
    vulnerabilities_found: int
    critical_count: int
    high_count: int
    medium_count: int
    low_count: int
    current_tool: str
    phases_completed: list[GetScanResponse200PhasesCompletedItem]
    phases_remaining: list[GetScanResponse200PhasesRemainingItem]
    completed_at: datetime.datetime | Unset = UNSET
    started_at: datetime.datetime | Unset = UNSET
    info_count: int | Unset = UNSET
    frameworks: list[str] | Unset = UNSET
    ports: str | Unset = UNSET
    estimated_duration: int | Unset = UNSET
    error: str | Unset = UNSET
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

        current_tool = self.current_tool

        phases_completed = []
        for phases_completed_item_data in self.phases_completed:
            phases_completed_item = phases_completed_item_data.value
            phases_completed.append(phases_completed_item)



        phases_remaining = []
        for phases_remaining_item_data in self.phases_remaining:
            phases_remaining_item = phases_remaining_item_data.value
            phases_remaining.append(phases_remaining_item)



        completed_at: str | Unset = UNSET
        if not isinstance(self.completed_at, Unset):
            completed_at = self.completed_at.isoformat()

        started_at: str | Unset = UNSET
        if not isinstance(self.started_at, Unset):
            started_at = self.started_at.isoformat()

        info_count = self.info_count

        frameworks: list[str] | Unset = UNSET
        if not isinstance(self.frameworks, Unset):
            frameworks = self.frameworks



        ports = self.ports

        estimated_duration = self.estimated_duration

        error = self.error


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
            "current_tool": current_tool,
            "phases_completed": phases_completed,
            "phases_remaining": phases_remaining,
        })
        if completed_at is not UNSET:
            field_dict["completed_at"] = completed_at
        if started_at is not UNSET:
            field_dict["started_at"] = started_at
        if info_count is not UNSET:
            field_dict["info_count"] = info_count
        if frameworks is not UNSET:
            field_dict["frameworks"] = frameworks
        if ports is not UNSET:
            field_dict["ports"] = ports
        if estimated_duration is not UNSET:
            field_dict["estimated_duration"] = estimated_duration
        if error is not UNSET:
            field_dict["error"] = error

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        target = d.pop("target")

        scan_type = GetScanResponse200ScanType(d.pop("scan_type"))




        status = GetScanResponse200Status(d.pop("status"))




        progress = d.pop("progress")

        phase = d.pop("phase")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        vulnerabilities_found = d.pop("vulnerabilities_found")

        critical_count = d.pop("critical_count")

        high_count = d.pop("high_count")

        medium_count = d.pop("medium_count")

        low_count = d.pop("low_count")

        current_tool = d.pop("current_tool")

        phases_completed = []
        _phases_completed = d.pop("phases_completed")
        for phases_completed_item_data in (_phases_completed):
            phases_completed_item = GetScanResponse200PhasesCompletedItem(phases_completed_item_data)



            phases_completed.append(phases_completed_item)


        phases_remaining = []
        _phases_remaining = d.pop("phases_remaining")
        for phases_remaining_item_data in (_phases_remaining):
            phases_remaining_item = GetScanResponse200PhasesRemainingItem(phases_remaining_item_data)



            phases_remaining.append(phases_remaining_item)


        _completed_at = d.pop("completed_at", UNSET)
        completed_at: datetime.datetime | Unset
        if isinstance(_completed_at,  Unset):
            completed_at = UNSET
        else:
            completed_at = datetime.datetime.fromisoformat(_completed_at)




        _started_at = d.pop("started_at", UNSET)
        started_at: datetime.datetime | Unset
        if isinstance(_started_at,  Unset):
            started_at = UNSET
        else:
            started_at = datetime.datetime.fromisoformat(_started_at)




        info_count = d.pop("info_count", UNSET)

        frameworks = cast(list[str], d.pop("frameworks", UNSET))


        ports = d.pop("ports", UNSET)

        estimated_duration = d.pop("estimated_duration", UNSET)

        error = d.pop("error", UNSET)

        get_scan_response_200 = cls(
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
            current_tool=current_tool,
            phases_completed=phases_completed,
            phases_remaining=phases_remaining,
            completed_at=completed_at,
            started_at=started_at,
            info_count=info_count,
            frameworks=frameworks,
            ports=ports,
            estimated_duration=estimated_duration,
            error=error,
        )


        get_scan_response_200.additional_properties = d
        return get_scan_response_200

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
