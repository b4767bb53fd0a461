{{/* Names and labels shared by every template. */}}

{{- define "core-agent.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "core-agent.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "core-agent.selectorLabels" -}}
app.kubernetes.io/name: {{ include "core-agent.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "core-agent.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "core-agent.selectorLabels" . }}
app.kubernetes.io/version: {{ .Values.image.tag | default .Chart.AppVersion | replace "+" "_" | trunc 63 | trimSuffix "-" | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{- define "core-agent.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "core-agent.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{- define "core-agent.image" -}}
{{- $tag := .Values.image.tag | default .Chart.AppVersion }}
{{- if .Values.image.digest }}
{{- printf "%s:%s@%s" .Values.image.repository $tag .Values.image.digest }}
{{- else }}
{{- printf "%s:%s" .Values.image.repository $tag }}
{{- end }}
{{- end }}

{{/* The recipe text: values.recipe, else the chart's default. */}}
{{- define "core-agent.recipe" -}}
{{- if .Values.recipe }}
{{- .Values.recipe }}
{{- else }}
{{- .Files.Get "files/recipe.yaml" }}
{{- end }}
{{- end }}

{{/*
Fails the render on what would make the pod fail later (renders nothing otherwise):
it must be a YAML mapping, and with namespaced RBAC the watcher may only watch the
namespaces it can read (watch.namespaces, within rbac.namespaces).
*/}}
{{- define "core-agent.checkRecipe" -}}
{{- $recipe := fromYaml (include "core-agent.recipe" .) }}
{{- if hasKey $recipe "Error" }}
{{- fail (printf "values.recipe is not a YAML mapping: %s" (get $recipe "Error")) }}
{{- end }}
{{- if not (hasKey $recipe "watch") }}
{{- fail "the recipe has no watch: section, and core-agent watch would exit at start (watch: {} takes every default)" }}
{{- end }}
{{- if and .Values.rbac.create (not .Values.serviceAccount.create) (not .Values.serviceAccount.name) }}
{{- fail "serviceAccount.create=false needs serviceAccount.name: the read-only role would otherwise be bound to the namespace's default ServiceAccount, and every pod using it" }}
{{- end }}
{{- if and .Values.rbac.create (eq .Values.rbac.scope "namespaced") }}
{{- if not .Values.rbac.namespaces }}
{{- fail "rbac.scope=namespaced needs rbac.namespaces: the namespaces the agent may read" }}
{{- end }}
{{- $watch := $recipe.watch | default dict }}
{{- if not $watch.namespaces }}
{{- fail (printf "rbac.scope=namespaced: the recipe must set watch.namespaces (a subset of %s); a cluster-wide watch would be forbidden" (toJson .Values.rbac.namespaces)) }}
{{- end }}
{{- range $watch.namespaces }}
{{- if not (has . $.Values.rbac.namespaces) }}
{{- fail (printf "the recipe watches namespace %q, which is not in rbac.namespaces %s" . (toJson $.Values.rbac.namespaces)) }}
{{- end }}
{{- end }}
{{- end }}
{{- end }}

{{/*
Read-only rules for an SRE: get/list/watch, resources named one by one. Never
Secrets, never a wildcard, never a write verb (test/cluster/helm.test.ts checks).
Pass (dict "cluster" true) to include the cluster-scoped kinds.
*/}}
{{- define "core-agent.rules" -}}
- apiGroups: [""]
  resources:
    - pods
    - pods/log
    - events
    - services
    - endpoints
    - configmaps
    - persistentvolumeclaims
    - replicationcontrollers
    - resourcequotas
    - limitranges
    - serviceaccounts
    {{- if .cluster }}
    - nodes
    - namespaces
    - persistentvolumes
    {{- end }}
  verbs: [get, list, watch]
- apiGroups: [apps]
  resources: [deployments, replicasets, statefulsets, daemonsets, controllerrevisions]
  verbs: [get, list, watch]
- apiGroups: [batch]
  resources: [jobs, cronjobs]
  verbs: [get, list, watch]
- apiGroups: [autoscaling]
  resources: [horizontalpodautoscalers]
  verbs: [get, list, watch]
- apiGroups: [policy]
  resources: [poddisruptionbudgets]
  verbs: [get, list, watch]
- apiGroups: [networking.k8s.io]
  resources: [ingresses, networkpolicies]
  verbs: [get, list, watch]
- apiGroups: [events.k8s.io]
  resources: [events]
  verbs: [get, list, watch]
- apiGroups: [discovery.k8s.io]
  resources: [endpointslices]
  verbs: [get, list, watch]
{{- if .cluster }}
- apiGroups: [storage.k8s.io]
  resources: [storageclasses]
  verbs: [get, list, watch]
{{- end }}
{{- end }}
