from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.bulk_update_findings_response_200_failed_item import BulkUpdateFindingsResponse200FailedItem





T = TypeVar("T", bound="BulkUpdateFindingsResponse200")



@_attrs_define
class BulkUpdateFindingsResponse200:
    """ 
        Attributes:
            updated (int):
            failed (list[BulkUpdateFindingsResponse200FailedItem]):
     """

    updated: int
    failed: list[BulkUpdateFindingsResponse200FailedItem]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.bulk_update_findings_response_200_failed_item import BulkUpdateFindingsResponse200FailedItem # noqa: PLC0415
        updated = self.updated

        failed = []
        for failed_item_data in self.failed:
            failed_item = failed_item_data.to_dict()
            failed.append(failed_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "updated": updated,
            "failed": failed,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.bulk_update_findings_response_200_failed_item import BulkUpdateFindingsResponse200FailedItem # noqa: PLC0415
        d = dict(src_dict)
        updated = d.pop("updated")

        failed = []
        _failed = d.pop("failed")
        for failed_item_data in (_failed):
            failed_item = BulkUpdateFindingsResponse200FailedItem.from_dict(failed_item_data)



            failed.append(failed_item)


        bulk_update_findings_response_200 = cls(
            updated=updated,
            failed=failed,
        )


        bulk_update_findings_response_200.additional_properties = d
        return bulk_update_findings_response_200

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
