from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.bulk_update_findings_body_update import BulkUpdateFindingsBodyUpdate





T = TypeVar("T", bound="BulkUpdateFindingsBody")



@_attrs_define
class BulkUpdateFindingsBody:
    """ 
        Attributes:
            finding_ids (list[str]):
            update (BulkUpdateFindingsBodyUpdate):
     """

    finding_ids: list[str]
    update: BulkUpdateFindingsBodyUpdate





    def to_dict(self) -> dict[str, Any]:
        from ..models.bulk_update_findings_body_update import BulkUpdateFindingsBodyUpdate # noqa: PLC0415
        finding_ids = self.finding_ids



        update = self.update.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "finding_ids": finding_ids,
            "update": update,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.bulk_update_findings_body_update import BulkUpdateFindingsBodyUpdate # noqa: PLC0415
        d = dict(src_dict)
        finding_ids = cast(list[str], d.pop("finding_ids"))


        update = BulkUpdateFindingsBodyUpdate.from_dict(d.pop("update"))




        bulk_update_findings_body = cls(
            finding_ids=finding_ids,
            update=update,
        )

        return bulk_update_findings_body

