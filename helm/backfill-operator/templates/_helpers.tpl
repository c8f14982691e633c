{{- define "backfill-operator.name" -}}backfill-operator{{- end -}}

{{- define "backfill-operator.labels" -}}
app.kubernetes.io/name: backfill-operator
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{- define "backfill-operator.selector" -}}
app.kubernetes.io/name: backfill-operator
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{/* What the operator may do where campaigns live: nothing more. */}}
{{- define "backfill-operator.campaignRules" -}}
- apiGroups: ["backfill.dpone.io"]
  resources: ["backfillcampaigns"]
  # patch: finalizer and the handled-action annotations
  verbs: ["get", "list", "watch", "patch", "update"]
- apiGroups: ["backfill.dpone.io"]
  resources: ["backfillcampaigns/status"]
  verbs: ["get", "patch", "update"]
- apiGroups: ["backfill.dpone.io"]
  # lane pods carry blockOwnerDeletion owner references
  resources: ["backfillcampaigns/finalizers"]
  verbs: ["update"]
- apiGroups: [""]
  resources: ["pods"]
  verbs: ["get", "list", "watch", "create", "delete"]
- apiGroups: [""]
  resources: ["events"]
  verbs: ["create", "patch"]
- apiGroups: [""]
  # read by name only: connection Secrets named in a campaign (never listed or watched)
  resources: ["secrets"]
  verbs: ["get"]
{{- end -}}
