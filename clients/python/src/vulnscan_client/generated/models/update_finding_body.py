from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.update_finding_body_priority_type_1 import UpdateFindingBodyPriorityType1
from ..models.update_finding_body_priority_type_2_type_1 import UpdateFindingBodyPriorityType2Type1
from ..models.update_finding_body_priority_type_3_type_1 import UpdateFindingBodyPriorityType3Type1
from ..models.update_finding_body_status import UpdateFindingBodyStatus
from ..types import UNSET, Unset
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.update_finding_body_acceptance import UpdateFindingBodyAcceptance





T = TypeVar("T", bound="UpdateFindingBody")



@_attrs_define
class UpdateFindingBody:
    """ 
        Attributes:
            status (UpdateFindingBodyStatus | Unset):
            assignee (None | str | Unset):
            priority (None | Unset | UpdateFindingBodyPriorityType1 | UpdateFindingBodyPriorityType2Type1 |
                UpdateFindingBodyPriorityType3Type1):
            due_date (datetime.datetime | None | Unset):
            notes (str | Unset):
            acceptance (UpdateFindingBodyAcceptance | Unset): Required with `status: accepted`: until when (at most 365 days
                ahead) and why. With approval required by the organization the status waits for a second user (see
                /acceptance/decision)
     """

    status: UpdateFindingBodyStatus | Unset = UNSET
    assignee: None | str | Unset = UNSET
    priority: None | Unset | UpdateFindingBodyPriorityType1 | UpdateFindingBodyPriorityType2Type1 | UpdateFindingBodyPriorityType3Type1 = UNSET
    due_date: datetime.datetime | None | Unset = UNSET
    notes: str | Unset = UNSET
    acceptance: UpdateFindingBodyAcceptance | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.update_finding_body_acceptance import UpdateFindingBodyAcceptance # noqa: PLC0415
        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value


        assignee: None | str | Unset
        if isinstance(self.assignee, Unset):
            assignee = UNSET
        else:
            assignee = self.assignee

        priority: None | str | Unset
        if isinstance(self.priority, Unset):
            priority = UNSET
        elif isinstance(self.priority, UpdateFindingBodyPriorityType1):
            priority = self.priority.value
        elif isinstance(self.priority, UpdateFindingBodyPriorityType2Type1):
            priority = self.priority.value
        elif isinstance(self.priority, UpdateFindingBodyPriorityType3Type1):
            priority = self.priority.value
        else:
            priority = self.priority

        due_date: None | str | Unset
        if isinstance(self.due_date, Unset):
            due_date = UNSET
        elif isinstance(self.due_date, datetime.datetime):
            due_date = self.due_date.isoformat()
        else:
            due_date = self.due_date

        notes = self.notes

        acceptance: dict[str, Any] | Unset = UNSET
        if not isinstance(self.acceptance, Unset):
            acceptance = self.acceptance.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if status is not UNSET:
            field_dict["status"] = status
        if assignee is not UNSET:
            field_dict["assignee"] = assignee
        if priority is not UNSET:
            field_dict["priority"] = priority
        if due_date is not UNSET:
            field_dict["due_date"] = due_date
        if notes is not UNSET:
            field_dict["notes"] = notes
        if acceptance is not UNSET:
            field_dict["acceptance"] = acceptance

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.update_finding_body_acceptance import UpdateFindingBodyAcceptance # noqa: PLC0415
        d = dict(src_dict)
        _status = d.pop("status", UNSET)
        status: UpdateFindingBodyStatus | Unset
        if isinstance(_status,  Unset):
            status = UNSET
        else:
            status = UpdateFindingBodyStatus(_status)




        def _parse_assignee(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        assignee = _parse_assignee(d.pop("assignee", UNSET))


        def _parse_priority(data: object) -> None | Unset | UpdateFindingBodyPriorityType1 | UpdateFindingBodyPriorityType2Type1 | UpdateFindingBodyPriorityType3Type1:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                priority_type_1 = UpdateFindingBodyPriorityType1(data)



                return priority_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                priority_type_2_type_1 = UpdateFindingBodyPriorityType2Type1(data)



                return priority_type_2_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                priority_type_3_type_1 = UpdateFindingBodyPriorityType3Type1(data)



                return priority_type_3_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UpdateFindingBodyPriorityType1 | UpdateFindingBodyPriorityType2Type1 | UpdateFindingBodyPriorityType3Type1, data)

        priority = _parse_priority(d.pop("priority", UNSET))


        def _parse_due_date(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                due_date_type_0 = datetime.datetime.fromisoformat(data)



                return due_date_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        due_date = _parse_due_date(d.pop("due_date", UNSET))


        notes = d.pop("notes", UNSET)

        _acceptance = d.pop("acceptance", UNSET)
        acceptance: UpdateFindingBodyAcceptance | Unset
        if isinstance(_acceptance,  Unset):
            acceptance = UNSET
        else:
            acceptance = UpdateFindingBodyAcceptance.from_dict(_acceptance)




        update_finding_body = cls(
            status=status,
            assignee=assignee,
            priority=priority,
            due_date=due_date,
            notes=notes,
            acceptance=acceptance,
        )

        return update_finding_body

