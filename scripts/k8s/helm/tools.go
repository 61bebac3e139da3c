//go:build tools

// Pins helm for `go build helm.sh/helm/v3/cmd/helm` (scripts/k8s/tools.ts).
package tools

import _ "helm.sh/helm/v3/cmd/helm"
