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

{{/* The operator's recipe text: values.recipe, else the chart's default. */}}
{{- define "core-agent.baseRecipe" -}}
{{- if .Values.recipe }}
{{- .Values.recipe }}
{{- else }}
{{- .Files.Get "files/recipe.yaml" }}
{{- end }}
{{- end }}

{{/*
The sections the chart writes from its values (attach, peers.register), as a YAML
mapping; empty when neither is enabled. Appended to the operator's text rather than
merged into a parsed copy, so the recipe keeps its comments and layout.
*/}}
{{- define "core-agent.chartSections" -}}
{{- $sections := dict }}
{{- if .Values.attach.enabled }}
{{- $hosts := concat (fromYamlArray (include "core-agent.serviceHosts" (dict "root" . "port" .Values.attach.port))) .Values.attach.allowedHosts }}
{{- $attach := dict "listen" (printf "0.0.0.0:%d" (int .Values.attach.port)) "token_env" "CORE_AGENT_ATTACH_TOKENS" }}
{{- with $hosts }}{{ $_ := set $attach "allowed_hosts" . }}{{ end }}
{{- $_ := set $sections "attach" $attach }}
{{- end }}
{{- $reg := .Values.peers.register }}
{{- if $reg.enabled }}
{{- $register := dict "hub_url" $reg.hubUrl "token_env" "CORE_AGENT_HUB_TOKEN" "name" $reg.name "endpoint" (include "core-agent.peerEndpoint" .) "ttl_seconds" (int $reg.ttlSeconds) }}
{{- with $reg.labels }}{{ $_ := set $register "labels" . }}{{ end }}
{{- $_ := set $sections "peers" (dict "register" $register) }}
{{- end }}
{{- if $sections }}
{{- toYaml $sections }}
{{- end }}
{{- end }}

{{/*
The Service's in-cluster names at a port, as a YAML list (empty without a Service):
the Host a request through the Service carries, which the listeners refuse unless
told (docs/network.md#listeners). Called with (dict "root" . "port" PORT).
*/}}
{{- define "core-agent.serviceHosts" -}}
{{- $hosts := list }}
{{- if .root.Values.service.enabled }}
{{- $name := include "core-agent.fullname" .root }}
{{- $ns := .root.Release.Namespace }}
{{- range (list $name (printf "%s.%s" $name $ns) (printf "%s.%s.svc" $name $ns) (printf "%s.%s.svc.cluster.local" $name $ns)) }}
{{- $hosts = append $hosts (printf "%s:%d" . (int $.port)) }}
{{- end }}
{{- end }}
{{- toYaml $hosts }}
{{- end }}

{{/* Where the hub calls this agent back: peers.register.endpoint, else the Service's attach port. */}}
{{- define "core-agent.peerEndpoint" -}}
{{- .Values.peers.register.endpoint | default (printf "http://%s.%s.svc:%d" (include "core-agent.fullname" .) .Release.Namespace (int .Values.attach.port)) }}
{{- end }}

{{/* The recipe the pod reads: the operator's text, then the chart's sections. */}}
{{- define "core-agent.recipe" -}}
{{- $sections := include "core-agent.chartSections" . }}
{{- if $sections }}
{{- include "core-agent.baseRecipe" . | trimSuffix "\n" }}
{{- "\n\n# ---- added by the chart from values.attach / values.peers.register ----\n" }}
{{- $sections }}
{{- else }}
{{- include "core-agent.baseRecipe" . }}
{{- end }}
{{- end }}

{{/*
Fails the render on what would make the pod fail later (renders nothing otherwise):
it must be a YAML mapping, and with namespaced RBAC the watcher may only watch the
namespaces it can read (watch.namespaces, within rbac.namespaces).
*/}}
{{- define "core-agent.checkRecipe" -}}
{{- $recipe := fromYaml (include "core-agent.baseRecipe" .) }}
{{- if hasKey $recipe "Error" }}
{{- fail (printf "values.recipe is not a YAML mapping: %s" (get $recipe "Error")) }}
{{- end }}
{{- include "core-agent.checkChartSections" (dict "recipe" $recipe "Values" .Values) }}
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
Fails the render when values.attach / values.peers.register cannot work: a missing
Secret reference, a hub without its URL or name, a peer without the attach API it is
reached through, or a recipe that already has the section the chart would add.
Called with (dict "recipe" <parsed base recipe> "Values" .Values).
*/}}
{{- define "core-agent.checkChartSections" -}}
{{- $v := .Values }}
{{- if $v.attach.enabled }}
{{- if not $v.attach.tokenSecret.name }}
{{- fail "attach.enabled=true needs attach.tokenSecret.name: an existing Secret whose key (attach.tokenSecret.key, default \"tokens\") holds the bearer token or name=token,… pairs; the attach API is never anonymous" }}
{{- end }}
{{- if or (eq (int $v.attach.port) 8080) (eq (int $v.attach.port) (int $v.service.port)) }}
{{- fail (printf "attach.port=%d is taken: the container serves /metrics and the probes on 8080, and the Service on service.port=%d; pick another (default 8474)" (int $v.attach.port) (int $v.service.port)) }}
{{- end }}
{{- if hasKey .recipe "attach" }}
{{- fail "attach.enabled=true, but the recipe has its own attach: section: remove it from the recipe (the chart writes listen and token_env), or keep it and set attach.enabled=false" }}
{{- end }}
{{- end }}
{{- $reg := $v.peers.register }}
{{- if $reg.enabled }}
{{- if not $v.attach.enabled }}
{{- fail "peers.register.enabled=true needs attach.enabled=true: the hub reaches this agent through its attach API" }}
{{- end }}
{{- if not $reg.hubUrl }}
{{- fail "peers.register.enabled=true needs peers.register.hubUrl: the hub's attach URL (http:// or https://)" }}
{{- end }}
{{- if not $reg.name }}
{{- fail "peers.register.enabled=true needs peers.register.name: the name call_peer uses, unique across the hub (e.g. the cluster's name)" }}
{{- end }}
{{- if not $reg.tokenSecret.name }}
{{- fail "peers.register.enabled=true needs peers.register.tokenSecret.name: an existing Secret whose key (peers.register.tokenSecret.key, default \"token\") holds the token the hub accepts" }}
{{- end }}
{{- if and (not $reg.endpoint) (not $v.service.enabled) }}
{{- fail "peers.register.enabled=true with service.enabled=false needs peers.register.endpoint: the default endpoint is the Service's in-cluster URL" }}
{{- end }}
{{- if hasKey .recipe "peers" }}
{{- fail "peers.register.enabled=true, but the recipe has its own peers: section: remove it from the recipe, or keep it and set peers.register.enabled=false" }}
{{- end }}
{{- end }}
{{- if and $v.metrics.serviceMonitor.enabled (not $v.service.enabled) }}
{{- fail "metrics.serviceMonitor.enabled=true needs service.enabled=true: the ServiceMonitor selects the Service's http port" }}
{{- end }}
{{- end }}

{{/* The image of the helm test pod: tests.image.*, else the agent's image. */}}
{{- define "core-agent.testImage" -}}
{{- $t := .Values.tests.image }}
{{- if $t.repository }}
{{- $tag := $t.tag | default .Chart.AppVersion }}
{{- if $t.digest }}
{{- printf "%s:%s@%s" $t.repository $tag $t.digest }}
{{- else }}
{{- printf "%s:%s" $t.repository $tag }}
{{- end }}
{{- else }}
{{- include "core-agent.image" . }}
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

{{/* The helm test pod's labels: not the agent's selector, so the Service never routes to it. */}}
{{- define "core-agent.testSelectorLabels" -}}
app.kubernetes.io/name: {{ include "core-agent.name" . }}-test
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}
