from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.get_target_response_200_attempts_item_method import GetTargetResponse200AttemptsItemMethod
from ..models.get_target_response_200_attempts_item_source import GetTargetResponse200AttemptsItemSource
from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="GetTargetResponse200AttemptsItem")



@_attrs_define
class GetTargetResponse200AttemptsItem:
    """ 
        Attributes:
            method (GetTargetResponse200AttemptsItemMethod):
            at (datetime.datetime):
            source (GetTargetResponse200AttemptsItemSource):
            ok (bool):
            answer (str): What the look-up found (TXT values, file content, PTR names), shortened
            by (str | Unset): Who asked (email or API key name, the operator for an attestation); absent for re-checks
            error (str | Unset): Why it failed
     """

    method: GetTargetResponse200AttemptsItemMethod
    at: datetime.datetime
    source: GetTargetResponse200AttemptsItemSource
    ok: bool
    answer: str
    by: str | Unset = UNSET
    error: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        method = self.method.value

        at = self.at.isoformat()

        source = self.source.value

        ok = self.ok

        answer = self.answer

        by = self.by

        error = self.error


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "method": method,
            "at": at,
            "source": source,
            "ok": ok,
            "answer": answer,
        })
        if by is not UNSET:
            field_dict["by"] = by
        if error is not UNSET:
            field_dict["error"] = error

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        method = GetTargetResponse200AttemptsItemMethod(d.pop("method"))




        at = datetime.datetime.fromisoformat(d.pop("at"))




        source = GetTargetResponse200AttemptsItemSource(d.pop("source"))




        ok = d.pop("ok")

        answer = d.pop("answer")

        by = d.pop("by", UNSET)

        error = d.pop("error", UNSET)

        get_target_response_200_attempts_item = cls(
            method=method,
            at=at,
            source=source,
            ok=ok,
            answer=answer,
            by=by,
            error=error,
        )


        get_target_response_200_attempts_item.additional_properties = d
        return get_target_response_200_attempts_item

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
