import { check } from "../catalogue.js";

/* Handles on the port scan's checks; their text is data in services/scanner/checks/fingerprint.yaml. */

export const OPEN_PORTS = check("net-open-ports");
export const TELNET_EXPOSED = check("net-telnet-exposed");
