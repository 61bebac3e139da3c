from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

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
            auto_resolve (bool | Unset): Auto-resolution (default: off): a later completed scan that ran a finding's check
                against its component, got an answer and did not match resolves the finding with `resolution: not_detected`. A
                finding whose component the scan did not cover (host down, port closed or filtered, no answer, check not run)
                stays open; a re-detection reopens as always. Left out: unchanged
     """

    sla_days: UpdateFindingsPolicyBodySlaDays
    require_acceptance_approval: bool
    auto_resolve: bool | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.update_findings_policy_body_sla_days import UpdateFindingsPolicyBodySlaDays # noqa: PLC0415
        sla_days = self.sla_days.to_dict()

        require_acceptance_approval = self.require_acceptance_approval

        auto_resolve = self.auto_resolve


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "sla_days": sla_days,
            "require_acceptance_approval": require_acceptance_approval,
        })
        if auto_resolve is not UNSET:
            field_dict["auto_resolve"] = auto_resolve

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.update_findings_policy_body_sla_days import UpdateFindingsPolicyBodySlaDays # noqa: PLC0415
        d = dict(src_dict)
        sla_days = UpdateFindingsPolicyBodySlaDays.from_dict(d.pop("sla_days"))




        require_acceptance_approval = d.pop("require_acceptance_approval")

        auto_resolve = d.pop("auto_resolve", UNSET)

        update_findings_policy_body = cls(
            sla_days=sla_days,
            require_acceptance_approval=require_acceptance_approval,
            auto_resolve=auto_resolve,
        )

        return update_findings_policy_body

