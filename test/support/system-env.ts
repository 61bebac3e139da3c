/**
 * The environment of an end-to-end system that scans the lab (`scanNetworks`: its allowlist) and
 * delivers webhooks to a receiver on 127.0.0.2 whose certificate `receiverCa` signed; outbox
 * relays and scanner heartbeats run fast so events and progress arrive within a test's waits.
 */
export function labSystemEnv(o: { scanNetworks: string; receiverCa: string }): Record<string, string> {
  return {
    NODE_EXTRA_CA_CERTS: o.receiverCa,
    WEBHOOK_ALLOW_PRIVATE_URLS: "true",
    WEBHOOK_ALLOWED_NETWORKS: "127.0.0.2/32",
    SCAN_ALLOWED_NETWORKS: o.scanNetworks,
    OUTBOX_RELAY_INTERVAL_MS: "300",
    SCANNER_HEARTBEAT_MS: "1000",
  };
}
