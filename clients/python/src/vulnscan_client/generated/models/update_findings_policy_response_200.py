from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.update_findings_policy_response_200_refresh_state import UpdateFindingsPolicyResponse200RefreshState
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.update_findings_policy_response_200_sla_days import UpdateFindingsPolicyResponse200SlaDays





T = TypeVar("T", bound="UpdateFindingsPolicyResponse200")



@_attrs_define
class UpdateFindingsPolicyResponse200:
    """ 
        Attributes:
            sla_days (UpdateFindingsPolicyResponse200SlaDays): Days from detection to the due date per severity; null = no
                deadline
            require_acceptance_approval (bool): A move to accepted waits for a second user's approval
            auto_resolve (bool): Auto-resolution (default: off): a later completed scan that ran a finding's check against
                its component, got an answer and did not match resolves the finding with `resolution: not_detected`. A finding
                whose component the scan did not cover (host down, port closed or filtered, no answer, check not run) stays
                open; a re-detection reopens as always
            updated_at (datetime.datetime | None): null while the defaults apply
            updated_by (str):
            refresh_state (UpdateFindingsPolicyResponse200RefreshState): The last save's refresh of open and in-progress
                findings' due dates: `running` while it still works through them in the background, `done` after
            refreshed (int): Due dates that refresh moved so far
     """

    sla_days: UpdateFindingsPolicyResponse200SlaDays
    require_acceptance_approval: bool
    auto_resolve: bool
    updated_at: datetime.datetime | None
    updated_by: str
    refresh_state: UpdateFindingsPolicyResponse200RefreshState
    refreshed: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.update_findings_policy_response_200_sla_days import UpdateFindingsPolicyResponse200SlaDays # noqa: PLC0415
        sla_days = self.sla_days.to_dict()

        require_acceptance_approval = self.require_acceptance_approval

        auto_resolve = self.auto_resolve

        updated_at: None | str
        if isinstance(self.updated_at, datetime.datetime):
            updated_at = self.updated_at.isoformat()
        else:
            updated_at = self.updated_at

        updated_by = self.updated_by

        refresh_state = self.refresh_state.value

        refreshed = self.refreshed


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "sla_days": sla_days,
            "require_acceptance_approval": require_acceptance_approval,
            "auto_resolve": auto_resolve,
            "updated_at": updated_at,
            "updated_by": updated_by,
            "refresh_state": refresh_state,
            "refreshed": refreshed,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.update_findings_policy_response_200_sla_days import UpdateFindingsPolicyResponse200SlaDays # noqa: PLC0415
        d = dict(src_dict)
        sla_days = UpdateFindingsPolicyResponse200SlaDays.from_dict(d.pop("sla_days"))




        require_acceptance_approval = d.pop("require_acceptance_approval")

        auto_resolve = d.pop("auto_resolve")

        def _parse_updated_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                updated_at_type_0 = datetime.datetime.fromisoformat(data)



                return updated_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        updated_at = _parse_updated_at(d.pop("updated_at"))


        updated_by = d.pop("updated_by")

        refresh_state = UpdateFindingsPolicyResponse200RefreshState(d.pop("refresh_state"))




        refreshed = d.pop("refreshed")

        update_findings_policy_response_200 = cls(
            sla_days=sla_days,
            require_acceptance_approval=require_acceptance_approval,
            auto_resolve=auto_resolve,
            updated_at=updated_at,
            updated_by=updated_by,
            refresh_state=refresh_state,
            refreshed=refreshed,
        )


        update_findings_policy_response_200.additional_properties = d
        return update_findings_policy_response_200

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
