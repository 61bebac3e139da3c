from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.get_me_response_200_organization_plan import GetMeResponse200OrganizationPlan






T = TypeVar("T", bound="GetMeResponse200Organization")



@_attrs_define
class GetMeResponse200Organization:
    """ 
        Attributes:
            id (str): `org_<id>`
            name (str):
            plan (GetMeResponse200OrganizationPlan):
     """

    id: str
    name: str
    plan: GetMeResponse200OrganizationPlan
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        plan = self.plan.value


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "name": name,
            "plan": plan,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        plan = GetMeResponse200OrganizationPlan(d.pop("plan"))




        get_me_response_200_organization = cls(
            id=id,
            name=name,
            plan=plan,
        )


        get_me_response_200_organization.additional_properties = d
        return get_me_response_200_organization

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
