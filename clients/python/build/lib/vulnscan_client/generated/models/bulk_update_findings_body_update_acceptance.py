from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime






T = TypeVar("T", bound="BulkUpdateFindingsBodyUpdateAcceptance")



@_attrs_define
class BulkUpdateFindingsBodyUpdateAcceptance:
    """ Required with `status: accepted`: until when (at most 365 days ahead) and why. With approval required by the
    organization the status waits for a second user (see /acceptance/decision)

        Attributes:
            expires_at (datetime.datetime):
            justification (str):
     """

    expires_at: datetime.datetime
    justification: str





    def to_dict(self) -> dict[str, Any]:
        expires_at = self.expires_at.isoformat()

        justification = self.justification


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "expires_at": expires_at,
            "justification": justification,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        expires_at = datetime.datetime.fromisoformat(d.pop("expires_at"))




        justification = d.pop("justification")

        bulk_update_findings_body_update_acceptance = cls(
            expires_at=expires_at,
            justification=justification,
        )

        return bulk_update_findings_body_update_acceptance

