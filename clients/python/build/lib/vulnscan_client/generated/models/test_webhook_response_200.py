from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.test_webhook_response_200_status import TestWebhookResponse200Status
from ..types import UNSET, Unset






T = TypeVar("T", bound="TestWebhookResponse200")



@_attrs_define
class TestWebhookResponse200:
    """ 
        Attributes:
            delivery_id (str):
            status (TestWebhookResponse200Status):
            response_code (int): HTTP status of the (last) attempt; 0 when there was no answer
            response_time_ms (int):
            error (str | Unset): Present on failure
     """

    delivery_id: str
    status: TestWebhookResponse200Status
    response_code: int
    response_time_ms: int
    error: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        delivery_id = self.delivery_id

        status = self.status.value

        response_code = self.response_code

        response_time_ms = self.response_time_ms

        error = self.error


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "delivery_id": delivery_id,
            "status": status,
            "response_code": response_code,
            "response_time_ms": response_time_ms,
        })
        if error is not UNSET:
            field_dict["error"] = error

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        delivery_id = d.pop("delivery_id")

        status = TestWebhookResponse200Status(d.pop("status"))




        response_code = d.pop("response_code")

        response_time_ms = d.pop("response_time_ms")

        error = d.pop("error", UNSET)

        test_webhook_response_200 = cls(
            delivery_id=delivery_id,
            status=status,
            response_code=response_code,
            response_time_ms=response_time_ms,
            error=error,
        )


        test_webhook_response_200.additional_properties = d
        return test_webhook_response_200

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
