{{- define "backfill-operator.name" -}}backfill-operator{{- end -}}

{{- define "backfill-operator.labels" -}}
app.kubernetes.io/name: backfill-operator
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{/* Objects outside the release namespace (ClusterRole, ClusterRoleBinding, Roles in watched namespaces) carry the
release in their name, so two releases never share one. */}}
{{- define "backfill-operator.releaseScopedName" -}}
{{- printf "backfill-operator-%s-%s" .Release.Namespace .Release.Name | trunc 253 | trimSuffix "-" -}}
{{- end -}}

{{/* The namespaces the operator watches when it is not cluster-wide: watchNamespaces, else the release's own. */}}
{{- define "backfill-operator.watchedNamespaces" -}}
{{- if .Values.watchNamespaces }}{{ join "," .Values.watchNamespaces }}{{ else }}{{ .Release.Namespace }}{{ end -}}
{{- end -}}

{{/* "true" where the Prometheus Operator's API is served (or assumed): only there can its objects be installed. */}}
{{- define "backfill-operator.monitoringApi" -}}
{{- if or .Values.metrics.assumeMonitoringApi (.Capabilities.APIVersions.Has "monitoring.coreos.com/v1") -}}true{{- end -}}
{{- end -}}

{{- define "backfill-operator.selector" -}}
app.kubernetes.io/name: backfill-operator
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{/* What the operator may do where campaigns live: exactly the requests it makes (crds OperatorApiCalls). */}}
{{- define "backfill-operator.campaignRules" -}}
- apiGroups: ["backfill.dpone.io"]
  resources: ["backfillcampaigns"]
  # list/watch: the informer; patch: finalizer and handled-action annotations; get: re-read on a patch conflict
  verbs: ["get", "list", "watch", "patch"]
- apiGroups: ["backfill.dpone.io"]
  resources: ["backfillcampaigns/status"]
  verbs: ["patch"]
- apiGroups: ["backfill.dpone.io"]
  # lane pods carry blockOwnerDeletion owner references
  resources: ["backfillcampaigns/finalizers"]
  verbs: ["update"]
- apiGroups: [""]
  # list/watch: the lane pod informer; create/delete: lane pods
  resources: ["pods"]
  verbs: ["list", "watch", "create", "delete"]
- apiGroups: [""]
  resources: ["events"]
  verbs: ["create"]
- apiGroups: [""]
  # read by name only: connection Secrets named in a campaign (never listed or watched)
  resources: ["secrets"]
  verbs: ["get"]
{{- end -}}
