from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.list_webhook_deliveries_response_200_items_item import ListWebhookDeliveriesResponse200ItemsItem





T = TypeVar("T", bound="ListWebhookDeliveriesResponse200")



@_attrs_define
class ListWebhookDeliveriesResponse200:
    """ 
        Attributes:
            items (list[ListWebhookDeliveriesResponse200ItemsItem]):
            total (int):
            page (int):
            per_page (int):
            pages (int):
     """

    items: list[ListWebhookDeliveriesResponse200ItemsItem]
    total: int
    page: int
    per_page: int
    pages: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.list_webhook_deliveries_response_200_items_item import ListWebhookDeliveriesResponse200ItemsItem # noqa: PLC0415
        items = []
        for items_item_data in self.items:
            items_item = items_item_data.to_dict()
            items.append(items_item)



        total = self.total

        page = self.page

        per_page = self.per_page

        pages = self.pages


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "items": items,
            "total": total,
            "page": page,
            "per_page": per_page,
            "pages": pages,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.list_webhook_deliveries_response_200_items_item import ListWebhookDeliveriesResponse200ItemsItem # noqa: PLC0415
        d = dict(src_dict)
        items = []
        _items = d.pop("items")
        for items_item_data in (_items):
            items_item = ListWebhookDeliveriesResponse200ItemsItem.from_dict(items_item_data)



            items.append(items_item)


        total = d.pop("total")

        page = d.pop("page")

        per_page = d.pop("per_page")

        pages = d.pop("pages")

        list_webhook_deliveries_response_200 = cls(
            items=items,
            total=total,
            page=page,
            per_page=per_page,
            pages=pages,
        )


        list_webhook_deliveries_response_200.additional_properties = d
        return list_webhook_deliveries_response_200

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
