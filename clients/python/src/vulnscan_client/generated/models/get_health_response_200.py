from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.get_health_response_200_status import GetHealthResponse200Status
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.get_health_response_200_services import GetHealthResponse200Services





T = TypeVar("T", bound="GetHealthResponse200")



@_attrs_define
class GetHealthResponse200:
    """ 
        Attributes:
            status (GetHealthResponse200Status):
            version (str):
            timestamp (datetime.datetime):
            services (GetHealthResponse200Services): Each internal service by name
     """

    status: GetHealthResponse200Status
    version: str
    timestamp: datetime.datetime
    services: GetHealthResponse200Services
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.get_health_response_200_services import GetHealthResponse200Services # noqa: PLC0415
        status = self.status.value

        version = self.version

        timestamp = self.timestamp.isoformat()

        services = self.services.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "status": status,
            "version": version,
            "timestamp": timestamp,
            "services": services,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.get_health_response_200_services import GetHealthResponse200Services # noqa: PLC0415
        d = dict(src_dict)
        status = GetHealthResponse200Status(d.pop("status"))




        version = d.pop("version")

        timestamp = datetime.datetime.fromisoformat(d.pop("timestamp"))




        services = GetHealthResponse200Services.from_dict(d.pop("services"))




        get_health_response_200 = cls(
            status=status,
            version=version,
            timestamp=timestamp,
            services=services,
        )


        get_health_response_200.additional_properties = d
        return get_health_response_200

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
