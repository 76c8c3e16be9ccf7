{{/* The chart name, overridable. */}}
{{- define "ludis.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* The full name prefix of every resource. */}}
{{- define "ludis.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else if contains (include "ludis.name" .) .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name (include "ludis.name" .) | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}

{{/* Name of one component's resources: ludis.component.fullname (dict "ctx" . "component" "api"). */}}
{{- define "ludis.component.fullname" -}}
{{- printf "%s-%s" (include "ludis.fullname" .ctx) .component | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Labels of every resource. */}}
{{- define "ludis.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .ctx.Chart.Name .ctx.Chart.Version | replace "+" "_" }}
{{ include "ludis.selectorLabels" . }}
app.kubernetes.io/version: {{ .ctx.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .ctx.Release.Service }}
app.kubernetes.io/part-of: ludis
{{- end }}

{{/* Selector labels of one component. */}}
{{- define "ludis.selectorLabels" -}}
app.kubernetes.io/name: {{ include "ludis.name" .ctx }}
app.kubernetes.io/instance: {{ .ctx.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{/* image reference: ludis.image (dict "ctx" . "image" .Values.api.image) */}}
{{- define "ludis.image" -}}
{{- printf "%s:%s" .image.repository (default .ctx.Chart.AppVersion .image.tag) }}
{{- end }}

{{/* The restricted Pod Security container context used by every workload. */}}
{{- define "ludis.containerSecurityContext" -}}
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
runAsNonRoot: true
capabilities:
  drop: [ALL]
seccompProfile:
  type: RuntimeDefault
{{- end }}

{{/* The Secret holding the API's JWT signing key and encryption keys. */}}
{{- define "ludis.api.keysSecret" -}}
{{- if .Values.api.keysSecret -}}
{{- .Values.api.keysSecret -}}
{{- else -}}
{{- printf "%s-keys" (include "ludis.component.fullname" (dict "ctx" . "component" "api")) -}}
{{- end -}}
{{- end }}

{{/* Published apps need an origin of their own, unless the console's is allowed explicitly. */}}
{{- define "ludis.api.checkAppsOrigin" -}}
{{- if and (not .Values.api.appsOrigin) (not .Values.api.allowAppsOnConsoleOrigin) -}}
{{- fail "api.appsOrigin is required: published apps run their authors' code and must not share the console's origin, where their scripts could read a viewer's session. Set api.appsOrigin (e.g. https://*.apps.ludis.example, routed to the API too), or set api.allowAppsOnConsoleOrigin=true if every app author is trusted." -}}
{{- end -}}
{{- end }}
