from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.diff_scan_response_200_against import DiffScanResponse200Against
  from ..models.diff_scan_response_200_counts import DiffScanResponse200Counts
  from ..models.diff_scan_response_200_fixed import DiffScanResponse200Fixed
  from ..models.diff_scan_response_200_new import DiffScanResponse200New
  from ..models.diff_scan_response_200_not_covered import DiffScanResponse200NotCovered
  from ..models.diff_scan_response_200_regressed import DiffScanResponse200Regressed
  from ..models.diff_scan_response_200_scan import DiffScanResponse200Scan
  from ..models.diff_scan_response_200_unchanged import DiffScanResponse200Unchanged





T = TypeVar("T", bound="DiffScanResponse200")



@_attrs_define
class DiffScanResponse200:
    """ 
        Attributes:
            scan (DiffScanResponse200Scan):
            against (DiffScanResponse200Against):
            coverage_recorded (bool): The scan recorded its coverage; false (a scan from before coverage existed) puts every
                absent finding in not_covered
            counts (DiffScanResponse200Counts):
            new (DiffScanResponse200New): Detected by this scan and not by `against`
            fixed (DiffScanResponse200Fixed): Detected by `against`; this scan covered the check on the component and it did
                not match
            regressed (DiffScanResponse200Regressed): Detected by this scan after having been resolved
            unchanged (DiffScanResponse200Unchanged): Detected by both scans
            not_covered (DiffScanResponse200NotCovered): Detected by `against`; this scan did not cover the check on the
                component
     """

    scan: DiffScanResponse200Scan
    against: DiffScanResponse200Against
    coverage_recorded: bool
    counts: DiffScanResponse200Counts
    new: DiffScanResponse200New
    fixed: DiffScanResponse200Fixed
    regressed: DiffScanResponse200Regressed
    unchanged: DiffScanResponse200Unchanged
    not_covered: DiffScanResponse200NotCovered
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.diff_scan_response_200_against import DiffScanResponse200Against # noqa: PLC0415
        from ..models.diff_scan_response_200_counts import DiffScanResponse200Counts # noqa: PLC0415
        from ..models.diff_scan_response_200_fixed import DiffScanResponse200Fixed # noqa: PLC0415
        from ..models.diff_scan_response_200_new import DiffScanResponse200New # noqa: PLC0415
        from ..models.diff_scan_response_200_not_covered import DiffScanResponse200NotCovered # noqa: PLC0415
        from ..models.diff_scan_response_200_regressed import DiffScanResponse200Regressed # noqa: PLC0415
        from ..models.diff_scan_response_200_scan import DiffScanResponse200Scan # noqa: PLC0415
        from ..models.diff_scan_response_200_unchanged import DiffScanResponse200Unchanged # noqa: PLC0415
        scan = self.scan.to_dict()

        against = self.against.to_dict()

        coverage_recorded = self.coverage_recorded

        counts = self.counts.to_dict()

        new = self.new.to_dict()

        fixed = self.fixed.to_dict()

        regressed = self.regressed.to_dict()

        unchanged = self.unchanged.to_dict()

        not_covered = self.not_covered.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "scan": scan,
            "against": against,
            "coverage_recorded": coverage_recorded,
            "counts": counts,
            "new": new,
            "fixed": fixed,
            "regressed": regressed,
            "unchanged": unchanged,
            "not_covered": not_covered,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.diff_scan_response_200_against import DiffScanResponse200Against # noqa: PLC0415
        from ..models.diff_scan_response_200_counts import DiffScanResponse200Counts # noqa: PLC0415
        from ..models.diff_scan_response_200_fixed import DiffScanResponse200Fixed # noqa: PLC0415
        from ..models.diff_scan_response_200_new import DiffScanResponse200New # noqa: PLC0415
        from ..models.diff_scan_response_200_not_covered import DiffScanResponse200NotCovered # noqa: PLC0415
        from ..models.diff_scan_response_200_regressed import DiffScanResponse200Regressed # noqa: PLC0415
        from ..models.diff_scan_response_200_scan import DiffScanResponse200Scan # noqa: PLC0415
        from ..models.diff_scan_response_200_unchanged import DiffScanResponse200Unchanged # noqa: PLC0415
        d = dict(src_dict)
        scan = DiffScanResponse200Scan.from_dict(d.pop("scan"))




        against = DiffScanResponse200Against.from_dict(d.pop("against"))




        coverage_recorded = d.pop("coverage_recorded")

        counts = DiffScanResponse200Counts.from_dict(d.pop("counts"))




        new = DiffScanResponse200New.from_dict(d.pop("new"))




        fixed = DiffScanResponse200Fixed.from_dict(d.pop("fixed"))




        regressed = DiffScanResponse200Regressed.from_dict(d.pop("regressed"))




        unchanged = DiffScanResponse200Unchanged.from_dict(d.pop("unchanged"))




        not_covered = DiffScanResponse200NotCovered.from_dict(d.pop("not_covered"))




        diff_scan_response_200 = cls(
            scan=scan,
            against=against,
            coverage_recorded=coverage_recorded,
            counts=counts,
            new=new,
            fixed=fixed,
            regressed=regressed,
            unchanged=unchanged,
            not_covered=not_covered,
        )


        diff_scan_response_200.additional_properties = d
        return diff_scan_response_200

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
