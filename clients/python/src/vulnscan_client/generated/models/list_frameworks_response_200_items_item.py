from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.list_frameworks_response_200_items_item_id import ListFrameworksResponse200ItemsItemId
from ..types import UNSET, Unset






T = TypeVar("T", bound="ListFrameworksResponse200ItemsItem")



@_attrs_define
class ListFrameworksResponse200ItemsItem:
    """ 
        Attributes:
            id (ListFrameworksResponse200ItemsItemId):
            name (str):
            score (float): 0–100: implemented / (controls − not_applicable)
            controls_total (int):
            controls_implemented (int | Unset):
            controls_failing (int | Unset):
            controls_in_progress (int | Unset):
            controls_not_started (int | Unset):
            controls_not_applicable (int | Unset):
     """

    id: ListFrameworksResponse200ItemsItemId
    name: str
    score: float
    controls_total: int
    controls_implemented: int | Unset = UNSET
    controls_failing: int | Unset = UNSET
    controls_in_progress: int | Unset = UNSET
    controls_not_started: int | Unset = UNSET
    controls_not_applicable: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id.value

        name = self.name

        score = self.score

        controls_total = self.controls_total

        controls_implemented = self.controls_implemented

        controls_failing = self.controls_failing

        controls_in_progress = self.controls_in_progress

        controls_not_started = self.controls_not_started

        controls_not_applicable = self.controls_not_applicable


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "name": name,
            "score": score,
            "controls_total": controls_total,
        })
        if controls_implemented is not UNSET:
            field_dict["controls_implemented"] = controls_implemented
        if controls_failing is not UNSET:
            field_dict["controls_failing"] = controls_failing
        if controls_in_progress is not UNSET:
            field_dict["controls_in_progress"] = controls_in_progress
        if controls_not_started is not UNSET:
            field_dict["controls_not_started"] = controls_not_started
        if controls_not_applicable is not UNSET:
            field_dict["controls_not_applicable"] = controls_not_applicable

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = ListFrameworksResponse200ItemsItemId(d.pop("id"))




        name = d.pop("name")

        score = d.pop("score")

        controls_total = d.pop("controls_total")

        controls_implemented = d.pop("controls_implemented", UNSET)

        controls_failing = d.pop("controls_failing", UNSET)

        controls_in_progress = d.pop("controls_in_progress", UNSET)

        controls_not_started = d.pop("controls_not_started", UNSET)

        controls_not_applicable = d.pop("controls_not_applicable", UNSET)

        list_frameworks_response_200_items_item = cls(
            id=id,
            name=name,
            score=score,
            controls_total=controls_total,
            controls_implemented=controls_implemented,
            controls_failing=controls_failing,
            controls_in_progress=controls_in_progress,
            controls_not_started=controls_not_started,
            controls_not_applicable=controls_not_applicable,
        )


        list_frameworks_response_200_items_item.additional_properties = d
        return list_frameworks_response_200_items_item

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
