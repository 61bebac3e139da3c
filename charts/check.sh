#!/usr/bin/env bash
# Lints and renders the vulnscan chart with its defaults and with every deploy/values-*.yaml,
# and checks that each render holds a Deployment, a Service and a ServiceAccount for every
# deployable. Needs helm on PATH; without it, prints a skip line and exits 0. Not part of
# `npm test` (helm is not a project dependency).
#
#   bash charts/check.sh
#
# helm from the Go module proxy (the ldflags give it its real version and Kubernetes default):
#   go install -ldflags "-X helm.sh/helm/v3/internal/version.version=v3.16.4 \
#     -X helm.sh/helm/v3/pkg/chartutil.k8sVersionMajor=1 -X helm.sh/helm/v3/pkg/chartutil.k8sVersionMinor=31 \
#     -X helm.sh/helm/v3/pkg/lint/rules.k8sVersionMajor=1 -X helm.sh/helm/v3/pkg/lint/rules.k8sVersionMinor=31" \
#     helm.sh/helm/v3/cmd/helm@v3.16.4
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
chart="$here/vulnscan"
# The oldest Kubernetes the chart supports (Chart.yaml kubeVersion): native gRPC probes.
kube_version="${KUBE_VERSION:-1.27.0}"
deployables=(gateway auth scan-orchestrator scanner findings grc webhook-dispatcher)

if ! command -v helm >/dev/null 2>&1; then
  echo "charts/check.sh: SKIP (helm not on PATH)"
  exit 0
fi

out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
failed=0
checked=0

check() {
  local label="$1"; shift
  local file="$out/$label.yaml"
  echo "== $label"
  if ! helm lint "$chart" --strict --kube-version "$kube_version" "$@"; then
    echo "FAIL $label: helm lint"; failed=$((failed + 1)); return
  fi
  if ! helm template vulnscan "$chart" --namespace vulnscan --kube-version "$kube_version" "$@" >"$file"; then
    echo "FAIL $label: helm template"; failed=$((failed + 1)); return
  fi
  local kind name missing=0
  for name in "${deployables[@]}"; do
    for kind in Deployment Service ServiceAccount NetworkPolicy; do
      # Each resource of a deployable is named vulnscan-<deployable> in this render.
      if ! awk -v k="$kind" -v n="vulnscan-$name" '
          /^---/ { kind = ""; meta = 0 }
          /^kind: / { kind = $2 }
          /^metadata:/ { meta = 1 }
          meta && /^  name: / { if (kind == k && $2 == n) found = 1; meta = 0 }
          END { exit !found }' "$file"; then
        echo "FAIL $label: no $kind vulnscan-$name"; missing=1
      fi
    done
  done
  if [ "$missing" -ne 0 ]; then failed=$((failed + 1)); return; fi
  echo "ok $label: $(grep -c '^kind: ' "$file") resources, every deployable rendered ($(grep '^kind: ' "$file" | sort | uniq -c | awk '{printf "%s%s %s", sep, $1, $3; sep=", "}'))"
  checked=$((checked + 1))
}

check defaults
for values in "$root"/deploy/values-*.yaml; do
  [ -e "$values" ] || continue
  check "$(basename "$values" .yaml)" -f "$values"
done

echo "$checked passed, $failed failed"
[ "$failed" -eq 0 ]
