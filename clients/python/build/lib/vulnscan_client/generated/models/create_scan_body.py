from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.create_scan_body_frameworks_item import CreateScanBodyFrameworksItem
from ..models.create_scan_body_scan_type import CreateScanBodyScanType
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="CreateScanBody")



@_attrs_define
class CreateScanBody:
    """ 
        Attributes:
            target (str): Domain, IPv4/IPv6 address or CIDR range
            authorized (bool): Attestation that you are authorized to scan the target; must be true
            scan_type (CreateScanBodyScanType | Unset):  Default: CreateScanBodyScanType.FULL.
            frameworks (list[CreateScanBodyFrameworksItem] | Unset):
            ports (str | Unset): Ports and ranges, e.g. "22,80,443,8000-8100"; default: common ports
     """

    target: str
    authorized: bool
    scan_type: CreateScanBodyScanType | Unset = CreateScanBodyScanType.FULL
    frameworks: list[CreateScanBodyFrameworksItem] | Unset = UNSET
    ports: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        target = self.target

        authorized = self.authorized

        scan_type: str | Unset = UNSET
        if not isinstance(self.scan_type, Unset):
            scan_type = self.scan_type.value


        frameworks: list[str] | Unset = UNSET
        if not isinstance(self.frameworks, Unset):
            frameworks = []
            for frameworks_item_data in self.frameworks:
                frameworks_item = frameworks_item_data.value
                frameworks.append(frameworks_item)



        ports = self.ports


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "target": target,
            "authorized": authorized,
        })
        if scan_type is not UNSET:
            field_dict["scan_type"] = scan_type
        if frameworks is not UNSET:
            field_dict["frameworks"] = frameworks
        if ports is not UNSET:
            field_dict["ports"] = ports

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        target = d.pop("target")

        authorized = d.pop("authorized")

        _scan_type = d.pop("scan_type", UNSET)
        scan_type: CreateScanBodyScanType | Unset
        if isinstance(_scan_type,  Unset):
            scan_type = UNSET
        else:
            scan_type = CreateScanBodyScanType(_scan_type)




        _frameworks = d.pop("frameworks", UNSET)
        frameworks: list[CreateScanBodyFrameworksItem] | Unset = UNSET
        if _frameworks is not UNSET:
            frameworks = []
            for frameworks_item_data in _frameworks:
                frameworks_item = CreateScanBodyFrameworksItem(frameworks_item_data)



                frameworks.append(frameworks_item)


        ports = d.pop("ports", UNSET)

        create_scan_body = cls(
            target=target,
            authorized=authorized,
            scan_type=scan_type,
            frameworks=frameworks,
            ports=ports,
        )

        return create_scan_body

