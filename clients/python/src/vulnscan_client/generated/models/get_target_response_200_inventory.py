from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.get_target_response_200_inventory_last_scan_type_0 import GetTargetResponse200InventoryLastScanType0
  from ..models.get_target_response_200_inventory_open_findings import GetTargetResponse200InventoryOpenFindings
  from ..models.get_target_response_200_inventory_ports_item import GetTargetResponse200InventoryPortsItem





T = TypeVar("T", bound="GetTargetResponse200Inventory")



@_attrs_define
class GetTargetResponse200Inventory:
    """ What scans saw of the target, from summaries kept up to date as scans end, ports are reported and findings change
    (never counted on request). Findings count when their target (host) is the target itself or a host scans reported
    for it.

        Attributes:
            last_scan (GetTargetResponse200InventoryLastScanType0 | None): The latest scan that ended whose target overlaps
                this one; null when none has
            open_findings (GetTargetResponse200InventoryOpenFindings): Open and in-progress findings by severity
            sla_breaches (int): Open and in-progress findings past their due date, counted once the breach is announced
                (finding.sla_breached)
            ports (list[GetTargetResponse200InventoryPortsItem]): Open ports by address and port, with first and last seen
                (at most 1000)
     """

    last_scan: GetTargetResponse200InventoryLastScanType0 | None
    open_findings: GetTargetResponse200InventoryOpenFindings
    sla_breaches: int
    ports: list[GetTargetResponse200InventoryPortsItem]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.get_target_response_200_inventory_last_scan_type_0 import GetTargetResponse200InventoryLastScanType0 # noqa: PLC0415
        from ..models.get_target_response_200_inventory_open_findings import GetTargetResponse200InventoryOpenFindings # noqa: PLC0415
        from ..models.get_target_response_200_inventory_ports_item import GetTargetResponse200InventoryPortsItem # noqa: PLC0415
        last_scan: dict[str, Any] | None
        if isinstance(self.last_scan, GetTargetResponse200InventoryLastScanType0):
            last_scan = self.last_scan.to_dict()
        else:
            last_scan = self.last_scan

        open_findings = self.open_findings.to_dict()

        sla_breaches = self.sla_breaches

        ports = []
        for ports_item_data in self.ports:
            ports_item = ports_item_data.to_dict()
            ports.append(ports_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "last_scan": last_scan,
            "open_findings": open_findings,
            "sla_breaches": sla_breaches,
            "ports": ports,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.get_target_response_200_inventory_last_scan_type_0 import GetTargetResponse200InventoryLastScanType0 # noqa: PLC0415
        from ..models.get_target_response_200_inventory_open_findings import GetTargetResponse200InventoryOpenFindings # noqa: PLC0415
        from ..models.get_target_response_200_inventory_ports_item import GetTargetResponse200InventoryPortsItem # noqa: PLC0415
        d = dict(src_dict)
        def _parse_last_scan(data: object) -> GetTargetResponse200InventoryLastScanType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                last_scan_type_0 = GetTargetResponse200InventoryLastScanType0.from_dict(data)



                return last_scan_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(GetTargetResponse200InventoryLastScanType0 | None, data)

        last_scan = _parse_last_scan(d.pop("last_scan"))


        open_findings = GetTargetResponse200InventoryOpenFindings.from_dict(d.pop("open_findings"))




        sla_breaches = d.pop("sla_breaches")

        ports = []
        _ports = d.pop("ports")
        for ports_item_data in (_ports):
            ports_item = GetTargetResponse200InventoryPortsItem.from_dict(ports_item_data)



            ports.append(ports_item)


        get_target_response_200_inventory = cls(
            last_scan=last_scan,
            open_findings=open_findings,
            sla_breaches=sla_breaches,
            ports=ports,
        )


        get_target_response_200_inventory.additional_properties = d
        return get_target_response_200_inventory

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
