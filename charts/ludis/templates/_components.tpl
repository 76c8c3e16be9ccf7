{{- /* Resources every component has, from its own values block: each is included with
(dict "ctx" . "component" "api"|"operator") by templates/<component>/<kind>.yaml. */}}

{{/* The component's ServiceAccount, unless it is managed elsewhere. */}}
{{- define "ludis.component.serviceAccount" -}}
{{- $sa := (index .ctx.Values .component).serviceAccount }}
{{- if $sa.create }}
apiVersion: v1
kind: ServiceAccount
metadata:
  name: {{ include "ludis.serviceAccountName" . }}
  namespace: {{ .ctx.Release.Namespace }}
  labels:
    {{- include "ludis.labels" . | nindent 4 }}
  {{- with $sa.annotations }}
  annotations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
automountServiceAccountToken: {{ $sa.automount }}
{{- end }}
{{- end }}

{{/* A PodDisruptionBudget: the values' minAvailable or maxUnavailable, else minAvailable 1 with
more than one replica and maxUnavailable 1 with one (a drain may evict it, no replica is kept
down by two evictions at once). */}}
{{- define "ludis.component.pdb" -}}
{{- $v := index .ctx.Values .component }}
{{- if $v.pdb.enabled }}
{{- if and (not (kindIs "invalid" $v.pdb.minAvailable)) (not (kindIs "invalid" $v.pdb.maxUnavailable)) }}
{{- fail (printf "%s.pdb: set minAvailable or maxUnavailable, not both" .component) }}
{{- end }}
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: {{ include "ludis.component.fullname" . }}
  namespace: {{ .ctx.Release.Namespace }}
  labels:
    {{- include "ludis.labels" . | nindent 4 }}
spec:
  {{- if not (kindIs "invalid" $v.pdb.minAvailable) }}
  minAvailable: {{ $v.pdb.minAvailable }}
  {{- else if not (kindIs "invalid" $v.pdb.maxUnavailable) }}
  maxUnavailable: {{ $v.pdb.maxUnavailable }}
  {{- else if gt (int $v.replicas) 1 }}
  minAvailable: 1
  {{- else }}
  maxUnavailable: 1
  {{- end }}
  selector:
    matchLabels:
      {{- include "ludis.selectorLabels" . | nindent 6 }}
{{- end }}
{{- end }}

{{/* The Service of a component's metrics (port named `metrics`), which the ServiceMonitor selects. */}}
{{- define "ludis.component.metricsService" -}}
{{- $v := index .ctx.Values .component }}
apiVersion: v1
kind: Service
metadata:
  name: {{ include "ludis.component.fullname" . }}-metrics
  namespace: {{ .ctx.Release.Namespace }}
  labels:
    {{- include "ludis.labels" . | nindent 4 }}
    ludis.dev/metrics: "true"
spec:
  type: ClusterIP
  selector:
    {{- include "ludis.selectorLabels" . | nindent 4 }}
  ports:
    - name: metrics
      port: {{ $v.metrics.service.port }}
      targetPort: metrics
{{- end }}

{{/* A ServiceMonitor (Prometheus Operator) scraping the component's metrics Service. */}}
{{- define "ludis.component.serviceMonitor" -}}
{{- $sm := .ctx.Values.metrics.serviceMonitor }}
{{- if $sm.enabled }}
apiVersion: monitoring.coreos.com/v1
kind: ServiceMonitor
metadata:
  name: {{ include "ludis.component.fullname" . }}
  namespace: {{ .ctx.Release.Namespace }}
  labels:
    {{- include "ludis.labels" . | nindent 4 }}
    {{- with $sm.labels }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
spec:
  selector:
    matchLabels:
      {{- include "ludis.selectorLabels" . | nindent 6 }}
      ludis.dev/metrics: "true"
  namespaceSelector:
    matchNames: [{{ .ctx.Release.Namespace }}]
  endpoints:
    - port: metrics
      path: /metrics
      interval: {{ $sm.interval }}
      scrapeTimeout: {{ $sm.scrapeTimeout }}
{{- end }}
{{- end }}
