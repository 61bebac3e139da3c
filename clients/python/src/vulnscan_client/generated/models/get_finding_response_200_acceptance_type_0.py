from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.get_finding_response_200_acceptance_type_0_state import GetFindingResponse200AcceptanceType0State
from typing import cast
import datetime






T = TypeVar("T", bound="GetFindingResponse200AcceptanceType0")



@_attrs_define
class GetFindingResponse200AcceptanceType0:
    """ The latest risk acceptance; null when none was asked for

        Attributes:
            state (GetFindingResponse200AcceptanceType0State): `pending` (waits for a second user's approval; the status has
                not changed), `approved` (accepted until expires_at), `rejected`, `expired` (reopened at expires_at),
                `withdrawn` (the status moved on)
            justification (str):
            expires_at (datetime.datetime):
            requested_by (str):
            requested_at (datetime.datetime):
            decided_by (str): Who approved or rejected; empty when approval was not required
            decided_at (datetime.datetime | None):
            decision_note (str):
     """

    state: GetFindingResponse200AcceptanceType0State
    justification: str
    expires_at: datetime.datetime
    requested_by: str
    requested_at: datetime.datetime
    decided_by: str
    decided_at: datetime.datetime | None
    decision_note: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        state = self.state.value

        justification = self.justification

        expires_at = self.expires_at.isoformat()

        requested_by = self.requested_by

        requested_at = self.requested_at.isoformat()

        decided_by = self.decided_by

        decided_at: None | str
        if isinstance(self.decided_at, datetime.datetime):
            decided_at = self.decided_at.isoformat()
        else:
            decided_at = self.decided_at

        decision_note = self.decision_note


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "state": state,
            "justification": justification,
            "expires_at": expires_at,
            "requested_by": requested_by,
            "requested_at": requested_at,
            "decided_by": decided_by,
            "decided_at": decided_at,
            "decision_note": decision_note,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        state = GetFindingResponse200AcceptanceType0State(d.pop("state"))




        justification = d.pop("justification")

        expires_at = datetime.datetime.fromisoformat(d.pop("expires_at"))




        requested_by = d.pop("requested_by")

        requested_at = datetime.datetime.fromisoformat(d.pop("requested_at"))




        decided_by = d.pop("decided_by")

        def _parse_decided_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                decided_at_type_0 = datetime.datetime.fromisoformat(data)



                return decided_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        decided_at = _parse_decided_at(d.pop("decided_at"))


        decision_note = d.pop("decision_note")

        get_finding_response_200_acceptance_type_0 = cls(
            state=state,
            justification=justification,
            expires_at=expires_at,
            requested_by=requested_by,
            requested_at=requested_at,
            decided_by=decided_by,
            decided_at=decided_at,
            decision_note=decision_note,
        )


        get_finding_response_200_acceptance_type_0.additional_properties = d
        return get_finding_response_200_acceptance_type_0

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
