"""The same short tour in every client library (clients/*/examples): sign in, scan the target,
wait for the scan, page through its findings, triage one, export CSV, verify a webhook delivery.
Prints one JSON line of what it saw. Settings from the environment: VULNSCAN_URL,
VULNSCAN_EMAIL, VULNSCAN_PASSWORD, TARGET, PORTS, WEBHOOK_FILE (a received delivery:
{"body": "...", "headers": {...}}), WEBHOOK_SECRET."""

import json
import os
import time

from vulnscan_client import Vulnscan, VulnscanError, WebhookVerificationError, verify_webhook
from vulnscan_client.generated.api.findings import export_findings, get_finding, list_findings, update_finding
from vulnscan_client.generated.api.scans import create_scan, get_scan
from vulnscan_client.generated.models import (
    CreateScanBody,
    CreateScanBodyScanType,
    ExportFindingsFormat,
    UpdateFindingBody,
    UpdateFindingBodyStatus,
)

env = os.environ.__getitem__

with Vulnscan.sign_in(env("VULNSCAN_URL"), env("VULNSCAN_EMAIL"), env("VULNSCAN_PASSWORD")) as vs:
    scan = vs.call(create_scan, body=CreateScanBody(target=env("TARGET"), ports=env("PORTS"), scan_type=CreateScanBodyScanType.QUICK, authorized=True))
    status = str(scan.status.value)
    while status not in ("completed", "failed", "cancelled"):
        time.sleep(1)
        status = str(vs.call(get_scan, scan_id=scan.id).status.value)

    # Two per page, so a handful of findings takes several pages.
    ids = [finding.id for finding in vs.paginate(list_findings, scan_id=scan.id, per_page=2)]

    updated = vs.call(update_finding, finding_id=ids[0], body=UpdateFindingBody(status=UpdateFindingBodyStatus.IN_PROGRESS))

    exported = export_findings.sync_detailed(client=vs.client, format_=ExportFindingsFormat.CSV, scan_id=scan.id)
    csv_text = exported.content.decode("utf-8")

    not_found = ""
    try:
        vs.call(get_finding, finding_id="finding_does_not_exist")
    except VulnscanError as err:
        not_found = err.error_code

    with open(env("WEBHOOK_FILE"), encoding="utf-8") as f:
        delivery = json.load(f)
    verified = verify_webhook(delivery["body"].encode("utf-8"), delivery["headers"], env("WEBHOOK_SECRET"), tolerance_seconds=3600)
    tampered = "accepted"
    try:
        verify_webhook((delivery["body"] + " ").encode("utf-8"), delivery["headers"], env("WEBHOOK_SECRET"), tolerance_seconds=3600)
    except WebhookVerificationError:
        tampered = "refused"

    print(
        json.dumps(
            {
                "language": "python",
                "scan_id": scan.id,
                "status": status,
                "findings": len(ids),
                "updated": {"id": updated.id, "status": str(updated.status.value)},
                "csv_lines": len(csv_text.strip().split("\n")),
                "not_found": not_found,
                "webhook": {"id": verified["id"], "event": verified["event"], "tampered": tampered},
            }
        )
    )
