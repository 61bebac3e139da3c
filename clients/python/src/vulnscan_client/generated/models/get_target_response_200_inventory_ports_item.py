from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.get_target_response_200_inventory_ports_item_transport import GetTargetResponse200InventoryPortsItemTransport
from typing import cast
import datetime






T = TypeVar("T", bound="GetTargetResponse200InventoryPortsItem")



@_attrs_define
class GetTargetResponse200InventoryPortsItem:
    """ 
        Attributes:
            host (str): The host as findings name it: its name, else its address
            address (str):
            port (int):
            transport (GetTargetResponse200InventoryPortsItemTransport): tls when the service spoke TLS
            service (str): Service as identified (ssh, http, redis…), `unknown` when not
            product (str): Product and version when identified, else empty
            first_seen_at (datetime.datetime): When a scan first found it open
            last_seen_at (datetime.datetime): When a scan last found it open
            last_scan_id (str): The scan that last found it open
     """

    host: str
    address: str
    port: int
    transport: GetTargetResponse200InventoryPortsItemTransport
    service: str
    product: str
    first_seen_at: datetime.datetime
    last_seen_at: datetime.datetime
    last_scan_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        host = self.host

        address = self.address

        port = self.port

        transport = self.transport.value

        service = self.service

        product = self.product

        first_seen_at = self.first_seen_at.isoformat()

        last_seen_at = self.last_seen_at.isoformat()

        last_scan_id = self.last_scan_id


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "host": host,
            "address": address,
            "port": port,
            "transport": transport,
            "service": service,
            "product": product,
            "first_seen_at": first_seen_at,
            "last_seen_at": last_seen_at,
            "last_scan_id": last_scan_id,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        host = d.pop("host")

        address = d.pop("address")

        port = d.pop("port")

        transport = GetTargetResponse200InventoryPortsItemTransport(d.pop("transport"))




        service = d.pop("service")

        product = d.pop("product")

        first_seen_at = datetime.datetime.fromisoformat(d.pop("first_seen_at"))




        last_seen_at = datetime.datetime.fromisoformat(d.pop("last_seen_at"))




        last_scan_id = d.pop("last_scan_id")

        get_target_response_200_inventory_ports_item = cls(
            host=host,
            address=address,
            port=port,
            transport=transport,
            service=service,
            product=product,
            first_seen_at=first_seen_at,
            last_seen_at=last_seen_at,
            last_scan_id=last_scan_id,
        )


        get_target_response_200_inventory_ports_item.additional_properties = d
        return get_target_response_200_inventory_ports_item

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
