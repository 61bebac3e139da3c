from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.diff_scan_response_200_not_covered_items_item import DiffScanResponse200NotCoveredItemsItem





T = TypeVar("T", bound="DiffScanResponse200NotCovered")



@_attrs_define
class DiffScanResponse200NotCovered:
    """ Detected by `against`; this scan did not cover the check on the component

        Attributes:
            count (int): Findings in the bucket (all of them)
            items (list[DiffScanResponse200NotCoveredItemsItem]): Up to `limit`, most severe first
     """

    count: int
    items: list[DiffScanResponse200NotCoveredItemsItem]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.diff_scan_response_200_not_covered_items_item import DiffScanResponse200NotCoveredItemsItem # noqa: PLC0415
        count = self.count

        items = []
        for items_item_data in self.items:
            items_item = items_item_data.to_dict()
            items.append(items_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "count": count,
            "items": items,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.diff_scan_response_200_not_covered_items_item import DiffScanResponse200NotCoveredItemsItem # noqa: PLC0415
        d = dict(src_dict)
        count = d.pop("count")

        items = []
        _items = d.pop("items")
        for items_item_data in (_items):
            items_item = DiffScanResponse200NotCoveredItemsItem.from_dict(items_item_data)



            items.append(items_item)


        diff_scan_response_200_not_covered = cls(
            count=count,
            items=items,
        )


        diff_scan_response_200_not_covered.additional_properties = d
        return diff_scan_response_200_not_covered

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
