from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.decide_finding_acceptance_body_decision import DecideFindingAcceptanceBodyDecision
from ..types import UNSET, Unset






T = TypeVar("T", bound="DecideFindingAcceptanceBody")



@_attrs_define
class DecideFindingAcceptanceBody:
    """ 
        Attributes:
            decision (DecideFindingAcceptanceBodyDecision):
            note (str | Unset):
     """

    decision: DecideFindingAcceptanceBodyDecision
    note: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        decision = self.decision.value

        note = self.note


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "decision": decision,
        })
        if note is not UNSET:
            field_dict["note"] = note

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        decision = DecideFindingAcceptanceBodyDecision(d.pop("decision"))




        note = d.pop("note", UNSET)

        decide_finding_acceptance_body = cls(
            decision=decision,
            note=note,
        )

        return decide_finding_acceptance_body

