from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.create_webhook_body_events_item import CreateWebhookBodyEventsItem
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="CreateWebhookBody")



@_attrs_define
class CreateWebhookBody:
    """ 
        Attributes:
            name (str):
            url (str): HTTPS URL. Its host must resolve to public addresses, or to networks the deployment allows
                (WEBHOOK_ALLOWED_NETWORKS; the local stack allows loopback and the scan lab), checked again at each attempt
            events (list[CreateWebhookBodyEventsItem]):
            secret (str | Unset): Signing secret (write-only, never returned)
            active (bool | Unset):  Default: True.
     """

    name: str
    url: str
    events: list[CreateWebhookBodyEventsItem]
    secret: str | Unset = UNSET
    active: bool | Unset = True





    def to_dict(self) -> dict[str, Any]:
        name = self.name

        url = self.url

        events = []
        for events_item_data in self.events:
            events_item = events_item_data.value
            events.append(events_item)



        secret = self.secret

        active = self.active


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "name": name,
            "url": url,
            "events": events,
        })
        if secret is not UNSET:
            field_dict["secret"] = secret
        if active is not UNSET:
            field_dict["active"] = active

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        url = d.pop("url")

        events = []
        _events = d.pop("events")
        for events_item_data in (_events):
            events_item = CreateWebhookBodyEventsItem(events_item_data)



            events.append(events_item)


        secret = d.pop("secret", UNSET)

        active = d.pop("active", UNSET)

        create_webhook_body = cls(
            name=name,
            url=url,
            events=events,
            secret=secret,
            active=active,
        )

        return create_webhook_body

