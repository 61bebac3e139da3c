{{/*
The deployables, in the order of DESIGN.md §1. `name` is the Kubernetes name (and the folder under
services/), `key` the values block. Adding a deployable: add a line here and a values block (see
deploy/README.md, "Adding a service").
*/}}
{{- define "vulnscan.components" -}}
- {name: gateway, key: gateway, entry: dist/gateway/main.js}
- {name: auth, key: auth, entry: dist/auth/main.js}
- {name: scan-orchestrator, key: scanOrchestrator, entry: dist/scan-orchestrator/main.js}
- {name: scanner, key: scanner, entry: dist/scanner/main.js}
- {name: findings, key: findings, entry: dist/findings/main.js}
- {name: grc, key: grc, entry: dist/grc/main.js}
- {name: webhook-dispatcher, key: webhookDispatcher, entry: dist/webhook-dispatcher/main.js}
{{- end -}}

{{/* Enabled deployables only: a list of {name, key, entry, gateway (bool), v (its values)}. */}}
{{- define "vulnscan.enabledComponents" -}}
{{- $out := list -}}
{{- range $c := include "vulnscan.components" . | fromYamlArray -}}
{{- $v := index $.Values $c.key -}}
{{- if not $v -}}
{{- fail (printf "values: block %q (deployable %s) is missing" $c.key $c.name) -}}
{{- end -}}
{{- if $v.enabled -}}
{{- $out = append $out (merge (dict "v" $v "gateway" (eq $c.name "gateway")) $c) -}}
{{- end -}}
{{- end -}}
{{- toYaml $out -}}
{{- end -}}

{{- define "vulnscan.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* <release>-<chart>, or just <release> when it already contains the chart name. */}}
{{- define "vulnscan.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* Name of a deployable's resources. Call with (dict "root" $ "name" "auth"). */}}
{{- define "vulnscan.componentFullname" -}}
{{- printf "%s-%s" (include "vulnscan.fullname" .root) .name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "vulnscan.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Labels of every resource of the release. */}}
{{- define "vulnscan.labels" -}}
helm.sh/chart: {{ include "vulnscan.chart" . }}
{{ include "vulnscan.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: vulnscan
{{- with .Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/* Selects every pod of the release (the deny-all policy uses it). */}}
{{- define "vulnscan.selectorLabels" -}}
app.kubernetes.io/name: {{ include "vulnscan.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{/* Call with (dict "root" $ "name" "auth"). */}}
{{- define "vulnscan.componentLabels" -}}
{{ include "vulnscan.labels" .root }}
app.kubernetes.io/component: {{ .name }}
{{- end -}}

{{/* Call with (dict "root" $ "name" "auth"). */}}
{{- define "vulnscan.componentSelectorLabels" -}}
{{ include "vulnscan.selectorLabels" .root }}
app.kubernetes.io/component: {{ .name }}
{{- end -}}

{{/* Metadata annotations from commonAnnotations (renders nothing when empty). */}}
{{/* Call as `{{- include "vulnscan.annotations" $ }}` at indent 2, without nindent. */}}
{{- define "vulnscan.annotations" -}}
{{- with .Values.commonAnnotations }}
  annotations:
    {{- toYaml . | nindent 4 }}
{{- end }}
{{- end -}}

{{- define "vulnscan.image" -}}
{{- $repo := .Values.image.repository -}}
{{- if .Values.image.registry -}}
{{- $repo = printf "%s/%s" .Values.image.registry .Values.image.repository -}}
{{- end -}}
{{- if .Values.image.digest -}}
{{- printf "%s@%s" $repo .Values.image.digest -}}
{{- else -}}
{{- printf "%s:%s" $repo (default .Chart.AppVersion .Values.image.tag | toString) -}}
{{- end -}}
{{- end -}}

{{/* Call with (dict "root" $ "name" "auth"). */}}
{{- define "vulnscan.serviceAccountName" -}}
{{- if .root.Values.serviceAccount.create -}}
{{- include "vulnscan.componentFullname" . -}}
{{- else -}}
{{- default "default" .root.Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{/* Name of the shared ConfigMap. */}}
{{- define "vulnscan.configMapName" -}}
{{- printf "%s-env" (include "vulnscan.fullname" .) | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/*
Normalises an allowlist (entries are "CIDR" or {cidr, except}) to a list of {cidr, except}.
Call with the list; returns YAML.
*/}}
{{- define "vulnscan.networks" -}}
{{- $out := list -}}
{{- range $n := . -}}
{{- if kindIs "string" $n -}}
{{- $out = append $out (dict "cidr" $n "except" list) -}}
{{- else if and (kindIs "map" $n) $n.cidr -}}
{{- $out = append $out (dict "cidr" $n.cidr "except" ($n.except | default list)) -}}
{{- else -}}
{{- fail (printf "allowlist entry %v: expected a CIDR string or {cidr, except}" $n) -}}
{{- end -}}
{{- end -}}
{{- toYaml $out -}}
{{- end -}}

{{/* The allowlist a deployable's `allowlist` field names: returns YAML {networks, envNetworks, envPrivate, private}. */}}
{{- define "vulnscan.allowlist" -}}
{{- $root := .root -}}
{{- if eq .kind "scan" -}}
networks: {{ $root.Values.scanAllowedNetworks | default list | toJson }}
envNetworks: SCAN_ALLOWED_NETWORKS
envPrivate: SCAN_ALLOW_PRIVATE_TARGETS
private: {{ $root.Values.scanAllowPrivateTargets }}
{{- else if eq .kind "webhook" -}}
networks: {{ $root.Values.webhookAllowedNetworks | default list | toJson }}
envNetworks: WEBHOOK_ALLOWED_NETWORKS
envPrivate: WEBHOOK_ALLOW_PRIVATE_URLS
private: {{ $root.Values.webhookAllowPrivateUrls }}
{{- else -}}
{{- fail (printf "allowlist %q: expected scan, webhook or \"\"" .kind) -}}
{{- end -}}
{{- end -}}

{{/* Effective probe settings: probeDefaults overridden by a deployable's `probes`. Call with (dict "root" $ "v" $values). */}}
{{- define "vulnscan.probes" -}}
{{- toYaml (mergeOverwrite (deepCopy .root.Values.probeDefaults) (deepCopy (.v.probes | default dict))) -}}
{{- end -}}

{{/* The timing fields of one probe. */}}
{{- define "vulnscan.probeTimings" -}}
initialDelaySeconds: {{ .initialDelaySeconds | default 0 }}
periodSeconds: {{ .periodSeconds }}
timeoutSeconds: {{ .timeoutSeconds }}
failureThreshold: {{ .failureThreshold }}
{{- with .successThreshold }}
successThreshold: {{ . }}
{{- end }}
{{- end -}}

{{/* True when a KEDA ScaledObject (not the chart's HPA, not replicaCount) sets the replicas. */}}
{{- define "vulnscan.kedaEnabled" -}}
{{- if and .keda .keda.enabled -}}true{{- end -}}
{{- end -}}

{{/* Lowest replica count a deployable runs with (HPA or KEDA minimum when autoscaling). */}}
{{- define "vulnscan.minReplicas" -}}
{{- if include "vulnscan.kedaEnabled" . -}}{{ .keda.minReplicas }}{{- else if .autoscaling.enabled -}}{{ .autoscaling.minReplicas }}{{- else -}}{{ .replicaCount }}{{- end -}}
{{- end -}}

{{/* Highest replica count a deployable may run with. */}}
{{- define "vulnscan.maxReplicas" -}}
{{- if include "vulnscan.kedaEnabled" . -}}{{ .keda.maxReplicas }}{{- else if .autoscaling.enabled -}}{{ .autoscaling.maxReplicas }}{{- else -}}{{ .replicaCount }}{{- end -}}
{{- end -}}

{{/* Fails early on values that would render a broken release. */}}
{{- define "vulnscan.validate" -}}
{{- $p := int .Values.kafka.partitions -}}
{{- if or (lt $p 1) (gt $p 256) -}}
{{- fail (printf "kafka.partitions must be 1-256 (KAFKA_PARTITIONS), got %v" .Values.kafka.partitions) -}}
{{- end -}}
{{- if not .Values.kafka.brokers -}}
{{- fail "kafka.brokers: at least one host:port is required" -}}
{{- end -}}
{{- if and (not .Values.mongo.existingSecret) (not .Values.mongo.url) -}}
{{- fail "mongo.url or mongo.existingSecret is required" -}}
{{- end -}}
{{- if not (has .Values.listenHost (list "0.0.0.0" "::")) -}}
{{- fail (printf "listenHost must be 0.0.0.0 or :: in pods, got %q" .Values.listenHost) -}}
{{- end -}}
{{- end -}}
