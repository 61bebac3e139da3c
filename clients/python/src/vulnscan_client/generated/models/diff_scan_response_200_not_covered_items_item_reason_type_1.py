from enum import StrEnum

class DiffScanResponse200NotCoveredItemsItemReasonType1(StrEnum):
    CHECK_NOT_RUN = "check_not_run"
    HOST_DOWN = "host_down"
    NO_ANSWER = "no_answer"
    NO_COVERAGE = "no_coverage"
    PORT_NOT_OPEN = "port_not_open"

    def __str__(self) -> str:
        return str(self.value)
