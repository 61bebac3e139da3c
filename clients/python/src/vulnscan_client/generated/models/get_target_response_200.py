from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.get_target_response_200_kind import GetTargetResponse200Kind
from ..types import UNSET, Unset
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.get_target_response_200_attempts_item import GetTargetResponse200AttemptsItem
  from ..models.get_target_response_200_inventory import GetTargetResponse200Inventory
  from ..models.get_target_response_200_verification import GetTargetResponse200Verification





T = TypeVar("T", bound="GetTargetResponse200")



@_attrs_define
class GetTargetResponse200:
    """ 
        Attributes:
            id (str): `target_<id>`
            target (str): Domain (lowercased), IP address or CIDR range
            kind (GetTargetResponse200Kind):
            verification (GetTargetResponse200Verification):
            created_at (datetime.datetime):
            inventory (GetTargetResponse200Inventory): What scans saw of the target, from summaries kept up to date as scans
                end, ports are reported and findings change (never counted on request). Findings count when their target (host)
                is the target itself or a host scans reported for it.
            attempts (list[GetTargetResponse200AttemptsItem] | Unset): The 20 most recent verification attempts, newest
                first (one target and verify only)
     """

    id: str
    target: str
    kind: GetTargetResponse200Kind
    verification: GetTargetResponse200Verification
    created_at: datetime.datetime
    inventory: GetTargetResponse200Inventory
    attempts: list[GetTargetResponse200AttemptsItem] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.get_target_response_200_attempts_item import GetTargetResponse200AttemptsItem # noqa: PLC0415
        from ..models.get_target_response_200_inventory import GetTargetResponse200Inventory # noqa: PLC0415
        from ..models.get_target_response_200_verification import GetTargetResponse200Verification # noqa: PLC0415
        id = self.id

        target = self.target

        kind = self.kind.value

        verification = self.verification.to_dict()

        created_at = self.created_at.isoformat()

        inventory = self.inventory.to_dict()

        attempts: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.attempts, Unset):
            attempts = []
            for attempts_item_data in self.attempts:
                attempts_item = attempts_item_data.to_dict()
                attempts.append(attempts_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "target": target,
            "kind": kind,
            "verification": verification,
            "created_at": created_at,
            "inventory": inventory,
        })
        if attempts is not UNSET:
            field_dict["attempts"] = attempts

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.get_target_response_200_attempts_item import GetTargetResponse200AttemptsItem # noqa: PLC0415
        from ..models.get_target_response_200_inventory import GetTargetResponse200Inventory # noqa: PLC0415
        from ..models.get_target_response_200_verification import GetTargetResponse200Verification # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        target = d.pop("target")

        kind = GetTargetResponse200Kind(d.pop("kind"))




        verification = GetTargetResponse200Verification.from_dict(d.pop("verification"))




        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        inventory = GetTargetResponse200Inventory.from_dict(d.pop("inventory"))




        _attempts = d.pop("attempts", UNSET)
        attempts: list[GetTargetResponse200AttemptsItem] | Unset = UNSET
        if _attempts is not UNSET:
            attempts = []
            for attempts_item_data in _attempts:
                attempts_item = GetTargetResponse200AttemptsItem.from_dict(attempts_item_data)



                attempts.append(attempts_item)


        get_target_response_200 = cls(
            id=id,
            target=target,
            kind=kind,
            verification=verification,
            created_at=created_at,
            inventory=inventory,
            attempts=attempts,
        )


        get_target_response_200.additional_properties = d
        return get_target_response_200

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
