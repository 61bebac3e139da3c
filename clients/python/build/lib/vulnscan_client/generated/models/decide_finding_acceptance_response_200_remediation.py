from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="DecideFindingAcceptanceResponse200Remediation")



@_attrs_define
class DecideFindingAcceptanceResponse200Remediation:
    """ 
        Attributes:
            summary (str):
            steps (list[str]):
            code_example (str):
            references (list[str]):
     """

    summary: str
    steps: list[str]
    code_example: str
    references: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        summary = self.summary

        steps = self.steps



        code_example = self.code_example

        references = self.references




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "summary": summary,
            "steps": steps,
            "code_example": code_example,
            "references": references,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        summary = d.pop("summary")

        steps = cast(list[str], d.pop("steps"))


        code_example = d.pop("code_example")

        references = cast(list[str], d.pop("references"))


        decide_finding_acceptance_response_200_remediation = cls(
            summary=summary,
            steps=steps,
            code_example=code_example,
            references=references,
        )


        decide_finding_acceptance_response_200_remediation.additional_properties = d
        return decide_finding_acceptance_response_200_remediation

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
