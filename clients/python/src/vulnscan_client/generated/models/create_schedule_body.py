from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.create_schedule_body_frameworks_item import CreateScheduleBodyFrameworksItem
from ..models.create_schedule_body_frequency import CreateScheduleBodyFrequency
from ..models.create_schedule_body_scan_type import CreateScheduleBodyScanType
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="CreateScheduleBody")



@_attrs_define
class CreateScheduleBody:
    """ 
        Attributes:
            target (str): Domain, IPv4/IPv6 address or CIDR range
            frequency (CreateScheduleBodyFrequency):
            hour (int):
            timezone (str): IANA name, e.g. Europe/Berlin
            scan_type (CreateScheduleBodyScanType | Unset):  Default: CreateScheduleBodyScanType.FULL.
            day_of_week (int | Unset): Required for weekly; 0 = Sunday
            day_of_month (int | Unset): Required for monthly
            frameworks (list[CreateScheduleBodyFrameworksItem] | Unset):
            ports (str | Unset): Ports and ranges, e.g. "22,80,443,8000-8100"; default: common ports
            authorized (bool | Unset): Attestation recorded for every run; must be true Default: True.
     """

    target: str
    frequency: CreateScheduleBodyFrequency
    hour: int
    timezone: str
    scan_type: CreateScheduleBodyScanType | Unset = CreateScheduleBodyScanType.FULL
    day_of_week: int | Unset = UNSET
    day_of_month: int | Unset = UNSET
    frameworks: list[CreateScheduleBodyFrameworksItem] | Unset = UNSET
    ports: str | Unset = UNSET
    authorized: bool | Unset = True





    def to_dict(self) -> dict[str, Any]:
        target = self.target

        frequency = self.frequency.value

        hour = self.hour

        timezone = self.timezone

        scan_type: str | Unset = UNSET
        if not isinstance(self.scan_type, Unset):
            scan_type = self.scan_type.value


        day_of_week = self.day_of_week

        day_of_month = self.day_of_month

        frameworks: list[str] | Unset = UNSET
        if not isinstance(self.frameworks, Unset):
            frameworks = []
            for frameworks_item_data in self.frameworks:
                frameworks_item = frameworks_item_data.value
                frameworks.append(frameworks_item)



        ports = self.ports

        authorized = self.authorized


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "target": target,
            "frequency": frequency,
            "hour": hour,
            "timezone": timezone,
        })
        if scan_type is not UNSET:
            field_dict["scan_type"] = scan_type
        if day_of_week is not UNSET:
            field_dict["day_of_week"] = day_of_week
        if day_of_month is not UNSET:
            field_dict["day_of_month"] = day_of_month
        if frameworks is not UNSET:
            field_dict["frameworks"] = frameworks
        if ports is not UNSET:
            field_dict["ports"] = ports
        if authorized is not UNSET:
            field_dict["authorized"] = authorized

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        target = d.pop("target")

        frequency = CreateScheduleBodyFrequency(d.pop("frequency"))




        hour = d.pop("hour")

        timezone = d.pop("timezone")

        _scan_type = d.pop("scan_type", UNSET)
        scan_type: CreateScheduleBodyScanType | Unset
        if isinstance(_scan_type,  Unset):
            scan_type = UNSET
        else:
            scan_type = CreateScheduleBodyScanType(_scan_type)




        day_of_week = d.pop("day_of_week", UNSET)

        day_of_month = d.pop("day_of_month", UNSET)

        _frameworks = d.pop("frameworks", UNSET)
        frameworks: list[CreateScheduleBodyFrameworksItem] | Unset = UNSET
        if _frameworks is not UNSET:
            frameworks = []
            for frameworks_item_data in _frameworks:
                frameworks_item = CreateScheduleBodyFrameworksItem(frameworks_item_data)



                frameworks.append(frameworks_item)


        ports = d.pop("ports", UNSET)

        authorized = d.pop("authorized", UNSET)

        create_schedule_body = cls(
            target=target,
            frequency=frequency,
            hour=hour,
            timezone=timezone,
            scan_type=scan_type,
            day_of_week=day_of_week,
            day_of_month=day_of_month,
            frameworks=frameworks,
            ports=ports,
            authorized=authorized,
        )

        return create_schedule_body

