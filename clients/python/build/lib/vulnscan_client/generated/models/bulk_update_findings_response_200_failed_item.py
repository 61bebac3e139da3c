from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="BulkUpdateFindingsResponse200FailedItem")



@_attrs_define
class BulkUpdateFindingsResponse200FailedItem:
    """ 
        Attributes:
            finding_id (str):
            error_code (str):
            detail (str):
     """

    finding_id: str
    error_code: str
    detail: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        finding_id = self.finding_id

        error_code = self.error_code

        detail = self.detail


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "finding_id": finding_id,
            "error_code": error_code,
            "detail": detail,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        finding_id = d.pop("finding_id")

        error_code = d.pop("error_code")

        detail = d.pop("detail")

        bulk_update_findings_response_200_failed_item = cls(
            finding_id=finding_id,
            error_code=error_code,
            detail=detail,
        )


        bulk_update_findings_response_200_failed_item.additional_properties = d
        return bulk_update_findings_response_200_failed_item

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
