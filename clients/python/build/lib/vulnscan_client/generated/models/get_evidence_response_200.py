from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.get_evidence_response_200_source import GetEvidenceResponse200Source
from ..models.get_evidence_response_200_status import GetEvidenceResponse200Status
from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="GetEvidenceResponse200")



@_attrs_define
class GetEvidenceResponse200:
    """ 
        Attributes:
            id (str): `evidence_<id>`
            control_id (str):
            name (str): File name
            size_bytes (int):
            sha256 (str): Lowercase hex SHA-256 of the file
            status (GetEvidenceResponse200Status): Only clean and expired files can be downloaded
            uploaded_at (datetime.datetime):
            control_ids (list[str] | Unset): Every control it supports (a compliance scan's report covers many)
            title (str | Unset):
            description (str | Unset):
            content_type (str | Unset):
            threat (None | str | Unset): Signature found, for quarantined items
            source (GetEvidenceResponse200Source | Unset):
            scan_id (None | str | Unset):
            uploaded_by (str | Unset):
            expires_at (datetime.datetime | None | Unset):
            observed_from (datetime.datetime | None | Unset):
            observed_to (datetime.datetime | None | Unset):
     """

    id: str
    control_id: str
    name: str
    size_bytes: int
    sha256: str
    status: GetEvidenceResponse200Status
    uploaded_at: datetime.datetime
    control_ids: list[str] | Unset = UNSET
    title: str | Unset = UNSET
    description: str | Unset = UNSET
    content_type: str | Unset = UNSET
    threat: None | str | Unset = UNSET
    source: GetEvidenceResponse200Source | Unset = UNSET
    scan_id: None | str | Unset = UNSET
    uploaded_by: str | Unset = UNSET
    expires_at: datetime.datetime | None | Unset = UNSET
    observed_from: datetime.datetime | None | Unset = UNSET
    observed_to: datetime.datetime | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        control_id = self.control_id

        name = self.name

        size_bytes = self.size_bytes

        sha256 = self.sha256

        status = self.status.value

        uploaded_at = self.uploaded_at.isoformat()

        control_ids: list[str] | Unset = UNSET
        if not isinstance(self.control_ids, Unset):
            control_ids = self.control_ids



        title = self.title

        description = self.description

        content_type = self.content_type

        threat: None | str | Unset
        if isinstance(self.threat, Unset):
            threat = UNSET
        else:
            threat = self.threat

        source: str | Unset = UNSET
        if not isinstance(self.source, Unset):
            source = self.source.value


        scan_id: None | str | Unset
        if isinstance(self.scan_id, Unset):
            scan_id = UNSET
        else:
            scan_id = self.scan_id

        uploaded_by = self.uploaded_by

        expires_at: None | str | Unset
        if isinstance(self.expires_at, Unset):
            expires_at = UNSET
        elif isinstance(self.expires_at, datetime.datetime):
            expires_at = self.expires_at.isoformat()
        else:
            expires_at = self.expires_at

        observed_from: None | str | Unset
        if isinstance(self.observed_from, Unset):
            observed_from = UNSET
        elif isinstance(self.observed_from, datetime.datetime):
            observed_from = self.observed_from.isoformat()
        else:
            observed_from = self.observed_from

        observed_to: None | str | Unset
        if isinstance(self.observed_to, Unset):
            observed_to = UNSET
        elif isinstance(self.observed_to, datetime.datetime):
            observed_to = self.observed_to.isoformat()
        else:
            observed_to = self.observed_to


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "control_id": control_id,
            "name": name,
            "size_bytes": size_bytes,
            "sha256": sha256,
            "status": status,
            "uploaded_at": uploaded_at,
        })
        if control_ids is not UNSET:
            field_dict["control_ids"] = control_ids
        if title is not UNSET:
            field_dict["title"] = title
        if description is not UNSET:
            field_dict["description"] = description
        if content_type is not UNSET:
            field_dict["content_type"] = content_type
        if threat is not UNSET:
            field_dict["threat"] = threat
        if source is not UNSET:
            field_dict["source"] = source
        if scan_id is not UNSET:
            field_dict["scan_id"] = scan_id
        if uploaded_by is not UNSET:
            field_dict["uploaded_by"] = uploaded_by
        if expires_at is not UNSET:
            field_dict["expires_at"] = expires_at
        if observed_from is not UNSET:
            field_dict["observed_from"] = observed_from
        if observed_to is not UNSET:
            field_dict["observed_to"] = observed_to

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        control_id = d.pop("control_id")

        name = d.pop("name")

        size_bytes = d.pop("size_bytes")

        sha256 = d.pop("sha256")

        status = GetEvidenceResponse200Status(d.pop("status"))




        uploaded_at = datetime.datetime.fromisoformat(d.pop("uploaded_at"))




        control_ids = cast(list[str], d.pop("control_ids", UNSET))


        title = d.pop("title", UNSET)

        description = d.pop("description", UNSET)

        content_type = d.pop("content_type", UNSET)

        def _parse_threat(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        threat = _parse_threat(d.pop("threat", UNSET))


        _source = d.pop("source", UNSET)
        source: GetEvidenceResponse200Source | Unset
        if isinstance(_source,  Unset):
            source = UNSET
        else:
            source = GetEvidenceResponse200Source(_source)




        def _parse_scan_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        scan_id = _parse_scan_id(d.pop("scan_id", UNSET))


        uploaded_by = d.pop("uploaded_by", UNSET)

        def _parse_expires_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                expires_at_type_0 = datetime.datetime.fromisoformat(data)



                return expires_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        expires_at = _parse_expires_at(d.pop("expires_at", UNSET))


        def _parse_observed_from(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                observed_from_type_0 = datetime.datetime.fromisoformat(data)



                return observed_from_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        observed_from = _parse_observed_from(d.pop("observed_from", UNSET))


        def _parse_observed_to(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                observed_to_type_0 = datetime.datetime.fromisoformat(data)



                return observed_to_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        observed_to = _parse_observed_to(d.pop("observed_to", UNSET))


        get_evidence_response_200 = cls(
            id=id,
            control_id=control_id,
            name=name,
            size_bytes=size_bytes,
            sha256=sha256,
            status=status,
            uploaded_at=uploaded_at,
            control_ids=control_ids,
            title=title,
            description=description,
            content_type=content_type,
            threat=threat,
            source=source,
            scan_id=scan_id,
            uploaded_by=uploaded_by,
            expires_at=expires_at,
            observed_from=observed_from,
            observed_to=observed_to,
        )


        get_evidence_response_200.additional_properties = d
        return get_evidence_response_200

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
