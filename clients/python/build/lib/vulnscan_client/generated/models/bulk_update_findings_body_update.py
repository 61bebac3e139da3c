from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.bulk_update_findings_body_update_status import BulkUpdateFindingsBodyUpdateStatus
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.bulk_update_findings_body_update_acceptance import BulkUpdateFindingsBodyUpdateAcceptance





T = TypeVar("T", bound="BulkUpdateFindingsBodyUpdate")



@_attrs_define
class BulkUpdateFindingsBodyUpdate:
    """ 
        Attributes:
            status (BulkUpdateFindingsBodyUpdateStatus | Unset):
            notes (str | Unset):
            acceptance (BulkUpdateFindingsBodyUpdateAcceptance | Unset): Required with `status: accepted`: until when (at
                most 365 days ahead) and why. With approval required by the organization the status waits for a second user (see
                /acceptance/decision)
     """

    status: BulkUpdateFindingsBodyUpdateStatus | Unset = UNSET
    notes: str | Unset = UNSET
    acceptance: BulkUpdateFindingsBodyUpdateAcceptance | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.bulk_update_findings_body_update_acceptance import BulkUpdateFindingsBodyUpdateAcceptance # noqa: PLC0415
        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value


        notes = self.notes

        acceptance: dict[str, Any] | Unset = UNSET
        if not isinstance(self.acceptance, Unset):
            acceptance = self.acceptance.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if status is not UNSET:
            field_dict["status"] = status
        if notes is not UNSET:
            field_dict["notes"] = notes
        if acceptance is not UNSET:
            field_dict["acceptance"] = acceptance

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.bulk_update_findings_body_update_acceptance import BulkUpdateFindingsBodyUpdateAcceptance # noqa: PLC0415
        d = dict(src_dict)
        _status = d.pop("status", UNSET)
        status: BulkUpdateFindingsBodyUpdateStatus | Unset
        if isinstance(_status,  Unset):
            status = UNSET
        else:
            status = BulkUpdateFindingsBodyUpdateStatus(_status)




        notes = d.pop("notes", UNSET)

        _acceptance = d.pop("acceptance", UNSET)
        acceptance: BulkUpdateFindingsBodyUpdateAcceptance | Unset
        if isinstance(_acceptance,  Unset):
            acceptance = UNSET
        else:
            acceptance = BulkUpdateFindingsBodyUpdateAcceptance.from_dict(_acceptance)




        bulk_update_findings_body_update = cls(
            status=status,
            notes=notes,
            acceptance=acceptance,
        )

        return bulk_update_findings_body_update

