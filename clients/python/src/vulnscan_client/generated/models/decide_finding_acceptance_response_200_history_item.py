from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime






T = TypeVar("T", bound="DecideFindingAcceptanceResponse200HistoryItem")



@_attrs_define
class DecideFindingAcceptanceResponse200HistoryItem:
    """ 
        Attributes:
            action (str): created, status_changed, reopened, assignee_changed, priority_changed, due_date_changed,
                notes_changed, commented; risk acceptance: acceptance_requested, acceptance_set, acceptance_approved,
                acceptance_rejected, acceptance_expired; retests: retested (`to` is the verdict and the retest id, e.g. `fixed
                (retest_…)`); auto-resolution: not_detected (`to` is the scan that covered the check and did not match)
            from_ (None | str):
            to (str):
            user (str): `system` for automatic changes
            timestamp (datetime.datetime):
     """

    action: str
    from_: None | str
    to: str
    user: str
    timestamp: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        action = self.action

        from_: None | str
        from_ = self.from_

        to = self.to

        user = self.user

        timestamp = self.timestamp.isoformat()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "action": action,
            "from": from_,
            "to": to,
            "user": user,
            "timestamp": timestamp,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        action = d.pop("action")

        def _parse_from_(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        from_ = _parse_from_(d.pop("from"))


        to = d.pop("to")

        user = d.pop("user")

        timestamp = datetime.datetime.fromisoformat(d.pop("timestamp"))




        decide_finding_acceptance_response_200_history_item = cls(
            action=action,
            from_=from_,
            to=to,
            user=user,
            timestamp=timestamp,
        )


        decide_finding_acceptance_response_200_history_item.additional_properties = d
        return decide_finding_acceptance_response_200_history_item

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
