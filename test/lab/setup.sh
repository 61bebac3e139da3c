#!/usr/bin/env bash
# Installs the Debian packages the scan lab and the port-scanner benchmark use, if missing:
# redis-server and memcached (real third-party lab targets), nmap (benchmark), iptables
# (firewall DROP inside the lab namespace), iproute2 (namespaces, tc netem), openssl (certs).
# Idempotent and quiet; installs never start the services (policy-rc.d denies that in
# containers; the lab runs its own instances inside its namespace).
set -euo pipefail
need=()
command -v redis-server >/dev/null || need+=(redis-server)
command -v memcached >/dev/null || need+=(memcached)
command -v nmap >/dev/null || need+=(nmap)
command -v iptables >/dev/null || need+=(iptables)
command -v ip >/dev/null || need+=(iproute2)
command -v tc >/dev/null || need+=(iproute2)
command -v openssl >/dev/null || need+=(openssl)
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ]; then echo "scan lab: missing ${need[*]} and not root to install them" >&2; exit 1; fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
