#!/usr/bin/env bash
# Installs the Debian packages the scan lab and the port-scanner benchmark use, if missing:
# redis-server and memcached (real third-party lab targets), nmap (benchmark), iptables
# (firewall DROP inside the lab namespace), iproute2 (namespaces, tc netem), openssl (certs),
# openssh-server and nginx (the patched Debian host: Debian's own builds, debian-host.ts).
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
[ -x /usr/sbin/sshd ] || need+=(openssh-server)
[ -x /usr/sbin/nginx ] || need+=(nginx)
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ]; then echo "scan lab: missing ${need[*]} and not root to install them" >&2; exit 1; fi
export DEBIAN_FRONTEND=noninteractive
# Packages must not start their services on this machine (sshd on port 22, nginx on 80): without
# a policy-rc.d already denying it (containers have one), one is put in place for the install.
if [ ! -e /usr/sbin/policy-rc.d ]; then
  printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d
  trap 'rm -f /usr/sbin/policy-rc.d' EXIT
fi
apt-get update -qq >/dev/null
apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
