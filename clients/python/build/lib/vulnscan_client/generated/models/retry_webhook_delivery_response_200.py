from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.retry_webhook_delivery_response_200_status import RetryWebhookDeliveryResponse200Status
from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="RetryWebhookDeliveryResponse200")



@_attrs_define
class RetryWebhookDeliveryResponse200:
    """ 
        Attributes:
            id (str): `delivery_<id>`
            event (str):
            status (RetryWebhookDeliveryResponse200Status): `pending` until the first attempt
            response_code (int): HTTP status of the (last) attempt; 0 when there was no answer
            response_time_ms (int):
            attempts (int):
            created_at (datetime.datetime):
            error (str | Unset): Present on failure
            delivered_at (datetime.datetime | Unset): Present on success
            next_retry (datetime.datetime | Unset): Present while another attempt is scheduled
            deferred_until (datetime.datetime | Unset): The events-per-hour cap deferred the first attempt to this time
     """

    id: str
    event: str
    status: RetryWebhookDeliveryResponse200Status
    response_code: int
    response_time_ms: int
    attempts: int
    created_at: datetime.datetime
    error: str | Unset = UNSET
    delivered_at: datetime.datetime | Unset = UNSET
    next_retry: datetime.datetime | Unset = UNSET
    deferred_until: datetime.datetime | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        event = self.event

        status = self.status.value

        response_code = self.response_code

        response_time_ms = self.response_time_ms

        attempts = self.attempts

        created_at = self.created_at.isoformat()

        error = self.error

        delivered_at: str | Unset = UNSET
        if not isinstance(self.delivered_at, Unset):
            delivered_at = self.delivered_at.isoformat()

        next_retry: str | Unset = UNSET
        if not isinstance(self.next_retry, Unset):
            next_retry = self.next_retry.isoformat()

        deferred_until: str | Unset = UNSET
        if not isinstance(self.deferred_until, Unset):
            deferred_until = self.deferred_until.isoformat()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "event": event,
            "status": status,
            "response_code": response_code,
            "response_time_ms": response_time_ms,
            "attempts": attempts,
            "created_at": created_at,
        })
        if error is not UNSET:
            field_dict["error"] = error
        if delivered_at is not UNSET:
            field_dict["delivered_at"] = delivered_at
        if next_retry is not UNSET:
            field_dict["next_retry"] = next_retry
        if deferred_until is not UNSET:
            field_dict["deferred_until"] = deferred_until

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        event = d.pop("event")

        status = RetryWebhookDeliveryResponse200Status(d.pop("status"))




        response_code = d.pop("response_code")

        response_time_ms = d.pop("response_time_ms")

        attempts = d.pop("attempts")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        error = d.pop("error", UNSET)

        _delivered_at = d.pop("delivered_at", UNSET)
        delivered_at: datetime.datetime | Unset
        if isinstance(_delivered_at,  Unset):
            delivered_at = UNSET
        else:
            delivered_at = datetime.datetime.fromisoformat(_delivered_at)




        _next_retry = d.pop("next_retry", UNSET)
        next_retry: datetime.datetime | Unset
        if isinstance(_next_retry,  Unset):
            next_retry = UNSET
        else:
            next_retry = datetime.datetime.fromisoformat(_next_retry)




        _deferred_until = d.pop("deferred_until", UNSET)
        deferred_until: datetime.datetime | Unset
        if isinstance(_deferred_until,  Unset):
            deferred_until = UNSET
        else:
            deferred_until = datetime.datetime.fromisoformat(_deferred_until)




        retry_webhook_delivery_response_200 = cls(
            id=id,
            event=event,
            status=status,
            response_code=response_code,
            response_time_ms=response_time_ms,
            attempts=attempts,
            created_at=created_at,
            error=error,
            delivered_at=delivered_at,
            next_retry=next_retry,
            deferred_until=deferred_until,
        )


        retry_webhook_delivery_response_200.additional_properties = d
        return retry_webhook_delivery_response_200

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
