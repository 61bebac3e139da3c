from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.update_findings_policy_body_sla_days import UpdateFindingsPolicyBodySlaDays





T = TypeVar("T", bound="UpdateFindingsPolicyBody")



@_attrs_define
class UpdateFindingsPolicyBody:
    """ 
        Attributes:
            sla_days (UpdateFindingsPolicyBodySlaDays): Days from detection to the due date per severity; null = no deadline
            require_acceptance_approval (bool):
     """

    sla_days: UpdateFindingsPolicyBodySlaDays
    require_acceptance_approval: bool





    def to_dict(self) -> dict[str, Any]:
        from ..models.update_findings_policy_body_sla_days import UpdateFindingsPolicyBodySlaDays # noqa: PLC0415
        sla_days = self.sla_days.to_dict()

        require_acceptance_approval = self.require_acceptance_approval


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "sla_days": sla_days,
            "require_acceptance_approval": require_acceptance_approval,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.update_findings_policy_body_sla_days import UpdateFindingsPolicyBodySlaDays # noqa: PLC0415
        d = dict(src_dict)
        sla_days = UpdateFindingsPolicyBodySlaDays.from_dict(d.pop("sla_days"))




        require_acceptance_approval = d.pop("require_acceptance_approval")

        update_findings_policy_body = cls(
            sla_days=sla_days,
            require_acceptance_approval=require_acceptance_approval,
        )

        return update_findings_policy_body

