from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.verify_target_response_200_verification_challenges_item_method import VerifyTargetResponse200VerificationChallengesItemMethod






T = TypeVar("T", bound="VerifyTargetResponse200VerificationChallengesItem")



@_attrs_define
class VerifyTargetResponse200VerificationChallengesItem:
    """ 
        Attributes:
            method (VerifyTargetResponse200VerificationChallengesItemMethod):
            location (str): Where to publish: the TXT record's name or the file's URL; empty for reverse_dns and attestation
            value (str): What to publish (the TXT value or the file's content); empty for reverse_dns and attestation
            instructions (str):
     """

    method: VerifyTargetResponse200VerificationChallengesItemMethod
    location: str
    value: str
    instructions: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        method = self.method.value

        location = self.location

        value = self.value

        instructions = self.instructions


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "method": method,
            "location": location,
            "value": value,
            "instructions": instructions,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        method = VerifyTargetResponse200VerificationChallengesItemMethod(d.pop("method"))




        location = d.pop("location")

        value = d.pop("value")

        instructions = d.pop("instructions")

        verify_target_response_200_verification_challenges_item = cls(
            method=method,
            location=location,
            value=value,
            instructions=instructions,
        )


        verify_target_response_200_verification_challenges_item.additional_properties = d
        return verify_target_response_200_verification_challenges_item

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
