from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.create_scan_response_201_scan_type import CreateScanResponse201ScanType
from ..models.create_scan_response_201_status import CreateScanResponse201Status
from typing import cast
import datetime






T = TypeVar("T", bound="CreateScanResponse201")



@_attrs_define
class CreateScanResponse201:
    """ 
        Attributes:
            id (str):
            target (str):
            scan_type (CreateScanResponse201ScanType):
            status (CreateScanResponse201Status):
            created_at (datetime.datetime):
            estimated_duration (int): Seconds: the median of your organization's recent completed scans of this type, or the
                type's default
     """

    id: str
    target: str
    scan_type: CreateScanResponse201ScanType
    status: CreateScanResponse201Status
    created_at: datetime.datetime
    estimated_duration: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        target = self.target

        scan_type = self.scan_type.value

        status = self.status.value

        created_at = self.created_at.isoformat()

        estimated_duration = self.estimated_duration


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "target": target,
            "scan_type": scan_type,
            "status": status,
            "created_at": created_at,
            "estimated_duration": estimated_duration,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        target = d.pop("target")

        scan_type = CreateScanResponse201ScanType(d.pop("scan_type"))




        status = CreateScanResponse201Status(d.pop("status"))




        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        estimated_duration = d.pop("estimated_duration")

        create_scan_response_201 = cls(
            id=id,
            target=target,
            scan_type=scan_type,
            status=status,
            created_at=created_at,
            estimated_duration=estimated_duration,
        )


        create_scan_response_201.additional_properties = d
        return create_scan_response_201

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
