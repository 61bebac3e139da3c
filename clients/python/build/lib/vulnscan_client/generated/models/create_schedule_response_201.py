from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.create_schedule_response_201_frequency import CreateScheduleResponse201Frequency
from ..models.create_schedule_response_201_scan_type import CreateScheduleResponse201ScanType
from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="CreateScheduleResponse201")



@_attrs_define
class CreateScheduleResponse201:
    """ 
        Attributes:
            id (str): `schedule_<id>`
            target (str):
            scan_type (CreateScheduleResponse201ScanType):
            frequency (CreateScheduleResponse201Frequency):
            hour (int):
            timezone (str): IANA time zone name
            next_run_at (datetime.datetime):
            created_at (datetime.datetime):
            day_of_week (int | Unset): Weekly only; 0 = Sunday
            day_of_month (int | Unset): Monthly only
            frameworks (list[str] | Unset):
            ports (str | Unset):
            last_scan_id (str | Unset):
     """

    id: str
    target: str
    scan_type: CreateScheduleResponse201ScanType
    frequency: CreateScheduleResponse201Frequency
    hour: int
    timezone: str
    next_run_at: datetime.datetime
    created_at: datetime.datetime
    day_of_week: int | Unset = UNSET
    day_of_month: int | Unset = UNSET
    frameworks: list[str] | Unset = UNSET
    ports: str | Unset = UNSET
    last_scan_id: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        target = self.target

        scan_type = self.scan_type.value

        frequency = self.frequency.value

        hour = self.hour

        timezone = self.timezone

        next_run_at = self.next_run_at.isoformat()

        created_at = self.created_at.isoformat()

        day_of_week = self.day_of_week

        day_of_month = self.day_of_month

        frameworks: list[str] | Unset = UNSET
        if not isinstance(self.frameworks, Unset):
            frameworks = self.frameworks



        ports = self.ports

        last_scan_id = self.last_scan_id


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "target": target,
            "scan_type": scan_type,
            "frequency": frequency,
            "hour": hour,
            "timezone": timezone,
            "next_run_at": next_run_at,
            "created_at": created_at,
        })
        if day_of_week is not UNSET:
            field_dict["day_of_week"] = day_of_week
        if day_of_month is not UNSET:
            field_dict["day_of_month"] = day_of_month
        if frameworks is not UNSET:
            field_dict["frameworks"] = frameworks
        if ports is not UNSET:
            field_dict["ports"] = ports
        if last_scan_id is not UNSET:
            field_dict["last_scan_id"] = last_scan_id

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        target = d.pop("target")

        scan_type = CreateScheduleResponse201ScanType(d.pop("scan_type"))




        frequency = CreateScheduleResponse201Frequency(d.pop("frequency"))




        hour = d.pop("hour")

        timezone = d.pop("timezone")

        next_run_at = datetime.datetime.fromisoformat(d.pop("next_run_at"))




        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        day_of_week = d.pop("day_of_week", UNSET)

        day_of_month = d.pop("day_of_month", UNSET)

        frameworks = cast(list[str], d.pop("frameworks", UNSET))


        ports = d.pop("ports", UNSET)

        last_scan_id = d.pop("last_scan_id", UNSET)

        create_schedule_response_201 = cls(
            id=id,
            target=target,
            scan_type=scan_type,
            frequency=frequency,
            hour=hour,
            timezone=timezone,
            next_run_at=next_run_at,
            created_at=created_at,
            day_of_week=day_of_week,
            day_of_month=day_of_month,
            frameworks=frameworks,
            ports=ports,
            last_scan_id=last_scan_id,
        )


        create_schedule_response_201.additional_properties = d
        return create_schedule_response_201

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
