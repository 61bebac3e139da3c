from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.update_webhook_body_events_item import UpdateWebhookBodyEventsItem
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="UpdateWebhookBody")



@_attrs_define
class UpdateWebhookBody:
    """ 
        Attributes:
            name (str | Unset):
            url (str | Unset): HTTPS URL. Its host must resolve to public addresses, or to networks the deployment allows
                (WEBHOOK_ALLOWED_NETWORKS; the local stack allows loopback and the scan lab), checked again at each attempt
            events (list[UpdateWebhookBodyEventsItem] | Unset):
            secret (None | str | Unset): Signing secret (write-only, never returned)
            active (bool | Unset):
     """

    name: str | Unset = UNSET
    url: str | Unset = UNSET
    events: list[UpdateWebhookBodyEventsItem] | Unset = UNSET
    secret: None | str | Unset = UNSET
    active: bool | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        name = self.name

        url = self.url

        events: list[str] | Unset = UNSET
        if not isinstance(self.events, Unset):
            events = []
            for events_item_data in self.events:
                events_item = events_item_data.value
                events.append(events_item)



        secret: None | str | Unset
        if isinstance(self.secret, Unset):
            secret = UNSET
        else:
            secret = self.secret

        active = self.active


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if name is not UNSET:
            field_dict["name"] = name
        if url is not UNSET:
            field_dict["url"] = url
        if events is not UNSET:
            field_dict["events"] = events
        if secret is not UNSET:
            field_dict["secret"] = secret
        if active is not UNSET:
            field_dict["active"] = active

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name", UNSET)

        url = d.pop("url", UNSET)

        _events = d.pop("events", UNSET)
        events: list[UpdateWebhookBodyEventsItem] | Unset = UNSET
        if _events is not UNSET:
            events = []
            for events_item_data in _events:
                events_item = UpdateWebhookBodyEventsItem(events_item_data)



                events.append(events_item)


        def _parse_secret(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        secret = _parse_secret(d.pop("secret", UNSET))


        active = d.pop("active", UNSET)

        update_webhook_body = cls(
            name=name,
            url=url,
            events=events,
            secret=secret,
            active=active,
        )

        return update_webhook_body

