from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.create_target_response_201_verification_method import CreateTargetResponse201VerificationMethod
from ..models.create_target_response_201_verification_status import CreateTargetResponse201VerificationStatus
from ..types import UNSET, Unset
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.create_target_response_201_verification_challenges_item import CreateTargetResponse201VerificationChallengesItem





T = TypeVar("T", bound="CreateTargetResponse201Verification")



@_attrs_define
class CreateTargetResponse201Verification:
    """ 
        Attributes:
            status (CreateTargetResponse201VerificationStatus): pending → verified | failed; verified → expired when a re-
                check no longer finds the proof
            token (str): The challenge token; `vulnscan-verification=<token>` is what is published
            challenges (list[CreateTargetResponse201VerificationChallengesItem]): What to publish, per method this kind of
                target allows
            include_subdomains (bool): A verified domain covers its subdomains too (the TXT record said `include-
                subdomains`)
            proven_addresses (list[str]): Addresses proved with a domain: each served the HTTP file
            method (CreateTargetResponse201VerificationMethod | Unset): The method that proved it (verified, expired)
            verified_at (datetime.datetime | Unset): When it was proved (verified, expired)
            next_check_at (datetime.datetime | Unset): Next re-check (every 30 days; none for an operator's attestation)
            expired_at (datetime.datetime | Unset): When a re-check found the proof gone (expired)
            last_error (str | Unset): Why the last check failed (failed, expired; also a verified target's failed check now)
     """

    status: CreateTargetResponse201VerificationStatus
    token: str
    challenges: list[CreateTargetResponse201VerificationChallengesItem]
    include_subdomains: bool
    proven_addresses: list[str]
    method: CreateTargetResponse201VerificationMethod | Unset = UNSET
    verified_at: datetime.datetime | Unset = UNSET
    next_check_at: datetime.datetime | Unset = UNSET
    expired_at: datetime.datetime | Unset = UNSET
    last_error: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.create_target_response_201_verification_challenges_item import CreateTargetResponse201VerificationChallengesItem # noqa: PLC0415
        status = self.status.value

        token = self.token

        challenges = []
        for challenges_item_data in self.challenges:
            challenges_item = challenges_item_data.to_dict()
            challenges.append(challenges_item)



        include_subdomains = self.include_subdomains

        proven_addresses = self.proven_addresses



        method: str | Unset = UNSET
        if not isinstance(self.method, Unset):
            method = self.method.value


        verified_at: str | Unset = UNSET
        if not isinstance(self.verified_at, Unset):
            verified_at = self.verified_at.isoformat()

        next_check_at: str | Unset = UNSET
        if not isinstance(self.next_check_at, Unset):
            next_check_at = self.next_check_at.isoformat()

        expired_at: str | Unset = UNSET
        if not isinstance(self.expired_at, Unset):
            expired_at = self.expired_at.isoformat()

        last_error = self.last_error


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "status": status,
            "token": token,
            "challenges": challenges,
            "include_subdomains": include_subdomains,
            "proven_addresses": proven_addresses,
        })
        if method is not UNSET:
            field_dict["method"] = method
        if verified_at is not UNSET:
            field_dict["verified_at"] = verified_at
        if next_check_at is not UNSET:
            field_dict["next_check_at"] = next_check_at
        if expired_at is not UNSET:
            field_dict["expired_at"] = expired_at
        if last_error is not UNSET:
            field_dict["last_error"] = last_error

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.create_target_response_201_verification_challenges_item import CreateTargetResponse201VerificationChallengesItem # noqa: PLC0415
        d = dict(src_dict)
        status = CreateTargetResponse201VerificationStatus(d.pop("status"))




        token = d.pop("token")

        challenges = []
        _challenges = d.pop("challenges")
        for challenges_item_data in (_challenges):
            challenges_item = CreateTargetResponse201VerificationChallengesItem.from_dict(challenges_item_data)



            challenges.append(challenges_item)


        include_subdomains = d.pop("include_subdomains")

        proven_addresses = cast(list[str], d.pop("proven_addresses"))


        _method = d.pop("method", UNSET)
        method: CreateTargetResponse201VerificationMethod | Unset
        if isinstance(_method,  Unset):
            method = UNSET
        else:
            method = CreateTargetResponse201VerificationMethod(_method)




        _verified_at = d.pop("verified_at", UNSET)
        verified_at: datetime.datetime | Unset
        if isinstance(_verified_at,  Unset):
            verified_at = UNSET
        else:
            verified_at = datetime.datetime.fromisoformat(_verified_at)




        _next_check_at = d.pop("next_check_at", UNSET)
        next_check_at: datetime.datetime | Unset
        if isinstance(_next_check_at,  Unset):
            next_check_at = UNSET
        else:
            next_check_at = datetime.datetime.fromisoformat(_next_check_at)




        _expired_at = d.pop("expired_at", UNSET)
        expired_at: datetime.datetime | Unset
        if isinstance(_expired_at,  Unset):
            expired_at = UNSET
        else:
            expired_at = datetime.datetime.fromisoformat(_expired_at)




        last_error = d.pop("last_error", UNSET)

        create_target_response_201_verification = cls(
            status=status,
            token=token,
            challenges=challenges,
            include_subdomains=include_subdomains,
            proven_addresses=proven_addresses,
            method=method,
            verified_at=verified_at,
            next_check_at=next_check_at,
            expired_at=expired_at,
            last_error=last_error,
        )


        create_target_response_201_verification.additional_properties = d
        return create_target_response_201_verification

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
