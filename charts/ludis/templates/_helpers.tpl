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

{{/* Where pods clone the projects' repositories: the API's Service (its git server). */}}
{{- define "ludis.gitUrl" -}}
{{- $api := dict "ctx" . "component" "api" -}}
{{- printf "http://%s.%s.svc:%v/git" (include "ludis.component.fullname" $api) .Release.Namespace .Values.api.service.port -}}
{{- end }}

{{/* Where pods reach the API's storage gateway (STS and S3): its Service's storage port. */}}
{{- define "ludis.storageUrl" -}}
{{- $api := dict "ctx" . "component" "api" -}}
{{- printf "http://%s.%s.svc:%v" (include "ludis.component.fullname" $api) .Release.Namespace .Values.api.service.storagePort -}}
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

{{/* A reference of the image list: ludis.images.ref (dict "ctx" . "image" "python"). */}}
{{- define "ludis.images.ref" -}}
{{- $images := .ctx.Values.images }}
{{- $tag := default (default .ctx.Chart.AppVersion $images.tag) (index $images.tags .image) }}
{{- printf "%s/%s:%s" $images.registry .image $tag }}
{{- end }}

{{/* The ServiceAccount one component runs as. */}}
{{- define "ludis.serviceAccountName" -}}
{{- $sa := (index .ctx.Values .component).serviceAccount }}
{{- if $sa.create }}
{{- default (include "ludis.component.fullname" .) $sa.name }}
{{- else }}
{{- required (printf "%s.serviceAccount.name is required when %s.serviceAccount.create is false" .component .component) $sa.name }}
{{- end }}
{{- end }}

{{/* Pod-level settings shared by the workloads: pull secrets, security context, scheduling. */}}
{{- define "ludis.podScheduling" -}}
{{- $v := index .ctx.Values .component }}
{{- with $v.priorityClassName }}
priorityClassName: {{ . | quote }}
{{- end }}
{{- with $v.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with $v.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with $v.affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with $v.topologySpreadConstraints }}
{{- $constraints := list }}
{{- range . }}
{{- $c := deepCopy . }}
{{- if not (hasKey $c "labelSelector") }}
{{- $_ := set $c "labelSelector" (dict "matchLabels" (include "ludis.selectorLabels" $ | fromYaml)) }}
{{- end }}
{{- $constraints = append $constraints $c }}
{{- end }}
topologySpreadConstraints:
  {{- toYaml $constraints | nindent 2 }}
{{- end }}
{{- end }}

{{/* The Secret holding the object storage keys, or nothing: the default credential chain. */}}
{{- define "ludis.s3.credentialsSecret" -}}
{{- if .Values.s3.existingSecret -}}
{{- .Values.s3.existingSecret -}}
{{- else if .Values.s3.accessKey -}}
{{- printf "%s-s3" (include "ludis.fullname" .) -}}
{{- end -}}
{{- end }}

{{/* Object storage settings of both components (LUDIS_S3_*). */}}
{{- define "ludis.s3.env" -}}
{{- if .Values.s3.endpoint }}
- name: LUDIS_S3_ENDPOINT
  value: {{ .Values.s3.endpoint | quote }}
- name: LUDIS_S3_REGION
  value: {{ .Values.s3.region | quote }}
{{- with include "ludis.s3.credentialsSecret" . }}
- name: LUDIS_S3_ACCESS_KEY
  valueFrom:
    secretKeyRef: {name: {{ . | quote }}, key: access-key}
- name: LUDIS_S3_SECRET_KEY
  valueFrom:
    secretKeyRef: {name: {{ . | quote }}, key: secret-key}
{{- end }}
{{- end }}
{{- end }}

{{/* The old api.s3 connection values moved to the top-level s3 block: say so instead of ignoring them. */}}
{{- define "ludis.s3.checkMoved" -}}
{{- range $old, $new := dict "endpoint" "s3.endpoint" "region" "s3.region" "existingSecret" "s3.existingSecret" }}
{{- if index $.Values.api.s3 $old }}
{{- fail (printf "api.s3.%s moved to %s (one object storage block for the API and the operator); api.s3.bucket stays" $old $new) }}
{{- end }}
{{- end }}
{{- end }}

{{/* Where the API's keys come from: "secret" (api.keysSecret), "values" (api.keys, rendered into
a Secret) or "api" (the API creates the Secret at first start). */}}
{{- define "ludis.api.keysSource" -}}
{{- if .Values.api.keysSecret -}}
secret
{{- else if or .Values.api.keys.jwtSecret .Values.api.keys.encryptionKeys -}}
{{- if not (and .Values.api.keys.jwtSecret .Values.api.keys.encryptionKeys) -}}
{{- fail "api.keys.jwtSecret and api.keys.encryptionKeys go together: set both, or neither (the API then creates its keys Secret)" -}}
{{- end -}}
values
{{- else -}}
api
{{- end -}}
{{- end }}

{{/* The Secret holding the API's JWT signing key and encryption keys. The API-created one keeps the
name the chart's generated Secret had, so an upgraded release goes on with the same keys. */}}
{{- define "ludis.api.keysSecret" -}}
{{- $source := include "ludis.api.keysSource" . -}}
{{- if eq $source "secret" -}}
{{- .Values.api.keysSecret -}}
{{- else if eq $source "values" -}}
{{- printf "%s-static-keys" (include "ludis.component.fullname" (dict "ctx" . "component" "api")) -}}
{{- else -}}
{{- printf "%s-keys" (include "ludis.component.fullname" (dict "ctx" . "component" "api")) -}}
{{- end -}}
{{- end }}

{{/* The host of api.appsOrigin (`*.apps.example` for one origin per app), for the Ingress. */}}
{{- define "ludis.api.appsHost" -}}
{{- regexReplaceAll "^https?://([^/:]+)(:[0-9]+)?/?$" .Values.api.appsOrigin "${1}" -}}
{{- end }}

{{/* Published apps need an origin of their own, unless the console's is allowed explicitly. */}}
{{- define "ludis.api.checkAppsOrigin" -}}
{{- if and (not .Values.api.appsOrigin) (not .Values.api.allowAppsOnConsoleOrigin) -}}
{{- fail "api.appsOrigin is required: published apps run their authors' code and must not share the console's origin, where their scripts could read a viewer's session. Set api.appsOrigin (e.g. https://*.apps.ludis.example, routed to the API too), or set api.allowAppsOnConsoleOrigin=true if every app author is trusted." -}}
{{- end -}}
{{- end }}
