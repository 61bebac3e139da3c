from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.get_health_response_200_services_additional_property import GetHealthResponse200ServicesAdditionalProperty






T = TypeVar("T", bound="GetHealthResponse200Services")



@_attrs_define
class GetHealthResponse200Services:
    """ Each internal service by name

     """

    additional_properties: dict[str, GetHealthResponse200ServicesAdditionalProperty] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        
        field_dict: dict[str, Any] = {}
        for prop_name, prop in self.additional_properties.items():
            field_dict[prop_name] = prop.value


        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        get_health_response_200_services = cls(
        )


        additional_properties = {}
        for prop_name, prop_dict in d.items():
            additional_property = GetHealthResponse200ServicesAdditionalProperty(prop_dict)



            additional_properties[prop_name] = additional_property

        get_health_response_200_services.additional_properties = additional_properties
        return get_health_response_200_services

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> GetHealthResponse200ServicesAdditionalProperty:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: GetHealthResponse200ServicesAdditionalProperty) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
