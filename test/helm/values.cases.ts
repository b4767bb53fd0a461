/**
 * Values of the core-agent chart and what `helm template` must make of them: fragments
 * of the render, things it must not render, or the error that must stop it. One line
 * per case; test/cluster/helm-values.test.ts runs them.
 *
 * `values`: "key=value" is a --set, "key:=JSON" a --set-json.
 * `has`: [where, value] — where is "Kind:path" (path: a.b[0].c[name=x]; "Kind/name:"
 * picks one of several objects; "Recipe:" is the recipe the ConfigMap carries, parsed).
 * An object or array value must match (toMatchObject: a subset), exact(v) be equal
 * (so exact({}) means empty), anything else (and an asymmetric matcher) be equal.
 * `lacks`: "Kind" must not be rendered, or "Kind:path" must resolve to nothing.
 * `fails`: the render must fail, its message matching.
 */
import { expect } from 'vitest';

export interface ValuesCase {
  name: string;
  values: string[];
  has?: [where: string, value: unknown][];
  lacks?: string[];
  fails?: RegExp;
}

/** A value that must equal the render, not only be contained in it. */
export interface Exact {
  exact: unknown;
}
export const exact = (value: unknown): Exact => ({ exact: value });
export const isExact = (v: unknown): v is Exact => v !== null && typeof v === 'object' && Object.keys(v).length === 1 && 'exact' in v;

/** The securityContexts of the defaults (values.podSecurityContext / securityContext): Pod Security "restricted". */
export const DEFAULT_POD_SECURITY = {
  runAsNonRoot: true,
  runAsUser: 65532,
  runAsGroup: 65532,
  fsGroup: 65532,
  seccompProfile: { type: 'RuntimeDefault' },
};
export const DEFAULT_CONTAINER_SECURITY = {
  runAsNonRoot: true,
  allowPrivilegeEscalation: false,
  readOnlyRootFilesystem: true,
  capabilities: { drop: ['ALL'] },
};

const POD = 'Deployment:spec.template.spec';
const AGENT = `${POD}.containers[name=core-agent]`;
const TEST = 'Pod:spec.containers[name=check]';
const ATTACH = ['attach.enabled=true', 'attach.tokenSecret.name=sre-attach'];
const NETPOL = ['networkPolicy.enabled=true'];
const PEER = [
  ...ATTACH,
  'peers.register.enabled=true',
  'peers.register.hubUrl=https://hub.sre.example.com',
  'peers.register.name=prod-eu',
  'peers.register.tokenSecret.name=hub-token',
];
const secretEnv = (name: string, secret: string, key: string) => ({ name, valueFrom: { secretKeyRef: { name: secret, key } } });

// prettier-ignore
export const VALUES_CASES: ValuesCase[] = [
  // ---- the attach API
  { name: 'attach off by default: no port, no token, no recipe section', values: [], lacks: ['Recipe:attach', `${AGENT}.ports[name=attach]`, 'Service:spec.ports[name=attach]', 'NetworkPolicy'] },
  { name: 'attach on: recipe section, token env, container port', values: ATTACH, has: [['Recipe:attach', { listen: '0.0.0.0:8474', token_env: 'CORE_AGENT_ATTACH_TOKENS' }], [`${AGENT}.env[name=CORE_AGENT_ATTACH_TOKENS]`, secretEnv('CORE_AGENT_ATTACH_TOKENS', 'sre-attach', 'tokens')], [`${AGENT}.ports[name=attach]`, { containerPort: 8474, protocol: 'TCP' }]] },
  { name: 'attach on: a Service port named attach', values: ATTACH, has: [['Service:spec.ports[name=attach]', { port: 8474, targetPort: 'attach' }], ['Service:spec.ports[name=http].port', 8080]] },
  { name: 'attach port and Secret key are values', values: [...ATTACH, 'attach.port=9443', 'attach.tokenSecret.key=pairs'], has: [['Recipe:attach.listen', '0.0.0.0:9443'], [`${AGENT}.env[name=CORE_AGENT_ATTACH_TOKENS].valueFrom.secretKeyRef.key`, 'pairs'], [`${AGENT}.ports[name=attach].containerPort`, 9443]] },
  { name: 'attach keeps the operator recipe text, then appends', values: [...ATTACH, 'recipe=# mine\nwatch: {}\n'], has: [['ConfigMap/core-agent-recipe:data.recipe\\.yaml', expect.stringMatching(/^# mine\nwatch: \{\}\n\n# ---- added by the chart .*\nattach:\n {2}allowed_hosts:\n(?: {2}- .*\n)+ {2}listen: 0\.0\.0\.0:8474\n/)]] },
  { name: 'attach with NetworkPolicy, no allowedFrom: only this namespace', values: [...ATTACH, ...NETPOL], has: [['NetworkPolicy:spec.ingress[1]', exact({ ports: [{ port: 'attach', protocol: 'TCP' }], from: [{ podSelector: {} }] })]] },
  { name: 'attach.allowedFrom becomes the rule’s peers', values: [...ATTACH, ...NETPOL, 'attach.allowedFrom:=[{"ipBlock":{"cidr":"10.20.0.0/16"}},{"namespaceSelector":{"matchLabels":{"team":"sre"}}}]'], has: [['NetworkPolicy:spec.ingress[1].from', exact([{ ipBlock: { cidr: '10.20.0.0/16' } }, { namespaceSelector: { matchLabels: { team: 'sre' } } }])]] },
  { name: 'attach off with NetworkPolicy: one ingress rule, port http only', values: NETPOL, has: [['NetworkPolicy:spec.ingress', exact([{ ports: [{ port: 'http', protocol: 'TCP' }] }])]], lacks: ['NetworkPolicy:spec.ingress[1]'] },
  { name: 'attach needs its token Secret', values: ['attach.enabled=true'], fails: /attach\.enabled=true needs attach\.tokenSecret\.name: an existing Secret/ },
  { name: 'attach port may not be the metrics port', values: [...ATTACH, 'attach.port=8080'], fails: /attach\.port=8080 is taken/ },
  { name: 'attach port may not be the Service port', values: [...ATTACH, 'service.port=9000', 'attach.port=9000'], fails: /attach\.port=9000 is taken: .*service\.port=9000/ },
  { name: 'attach port 0 is refused', values: [...ATTACH, 'attach.port=0'], fails: /\/attach\/port.*minimum/ },
  { name: 'attach port above 65535 is refused', values: [...ATTACH, 'attach.port=70000'], fails: /\/attach\/port.*maximum/ },
  { name: 'attach port is a number', values: [...ATTACH, 'attach.port=attach'], fails: /\/attach\/port.*want integer/ },
  { name: 'attach Secret name must be a DNS name', values: ['attach.enabled=true', 'attach.tokenSecret.name=Bad_Name'], fails: /\/attach\/tokenSecret\/name/ },
  { name: 'attach.allowedFrom: only NetworkPolicyPeer keys', values: [...ATTACH, 'attach.allowedFrom:=[{"podSelectr":{}}]'], fails: /additional properties 'podSelectr' not allowed/ },
  { name: 'attach: a misspelt key', values: [...ATTACH, 'attach.tokenSecrets.name=x'], fails: /additional properties 'tokenSecrets' not allowed/ },
  { name: 'attach on and the recipe has attach: too', values: [...ATTACH, 'recipe=watch: {}\nattach: {listen: "127.0.0.1:1"}\n'], fails: /the recipe has its own attach: section/ },
  { name: 'attach off and the recipe has attach: its own, kept', values: ['recipe=watch: {}\nattach: {listen: "127.0.0.1:1"}\n'], has: [['Recipe:attach.listen', '127.0.0.1:1']] },
  // ---- the Host names each port answers to (docs/network.md#listeners)
  { name: 'port 8080 answers to the Service names (the helm test reaches /readyz through them)', values: [], has: [[`${AGENT}.args`, expect.arrayContaining(['--allowed-host', 'core-agent:8080,core-agent.core-agent:8080,core-agent.core-agent.svc:8080,core-agent.core-agent.svc.cluster.local:8080'])]] },
  { name: 'port 8080: the names follow service.port, then service.allowedHosts', values: ['service.port=9090', 'service.allowedHosts={metrics.example.com}'], has: [[`${AGENT}.args`, expect.arrayContaining([expect.stringMatching(/^core-agent:9090,.*svc\.cluster\.local:9090,metrics\.example\.com$/)])]] },
  { name: 'without the Service no names are added', values: ['service.enabled=false'], has: [[`${AGENT}.args`, expect.not.arrayContaining(['--allowed-host'])]] },
  { name: 'without the Service, service.allowedHosts alone', values: ['service.enabled=false', 'service.allowedHosts={10.0.0.5:8080}'], has: [[`${AGENT}.args`, expect.arrayContaining(['--allowed-host', '10.0.0.5:8080'])]] },
  { name: 'attach answers to the Service names at its port', values: ATTACH, has: [['Recipe:attach.allowed_hosts', exact(['core-agent:8474', 'core-agent.core-agent:8474', 'core-agent.core-agent.svc:8474', 'core-agent.core-agent.svc.cluster.local:8474'])]] },
  { name: 'attach.allowedHosts after the Service names', values: [...ATTACH, 'attach.port=9443', 'attach.allowedHosts={agent.sre.example.com}'], has: [['Recipe:attach.allowed_hosts', exact(['core-agent:9443', 'core-agent.core-agent:9443', 'core-agent.core-agent.svc:9443', 'core-agent.core-agent.svc.cluster.local:9443', 'agent.sre.example.com'])]] },
  { name: 'attach without the Service: only attach.allowedHosts', values: [...ATTACH, 'service.enabled=false'], lacks: ['Recipe:attach.allowed_hosts'] },
  { name: 'an allowed host is HOST[:PORT], not a URL', values: [...ATTACH, 'attach.allowedHosts={https://agent.example.com}'], fails: /\/attach\/allowedHosts\/0/ },
  { name: 'service.allowedHosts entries are checked too', values: ['service.allowedHosts={a b}'], fails: /\/service\/allowedHosts\/0/ },

  // ---- registering with a peer hub
  { name: 'peer: recipe peers.register with the Service URL as endpoint', values: PEER, has: [['Recipe:peers.register', { hub_url: 'https://hub.sre.example.com', token_env: 'CORE_AGENT_HUB_TOKEN', name: 'prod-eu', endpoint: 'http://core-agent.core-agent.svc:8474', ttl_seconds: 60 }]], lacks: ['Recipe:peers.register.labels'] },
  { name: 'peer: the hub token from its Secret', values: PEER, has: [[`${AGENT}.env[name=CORE_AGENT_HUB_TOKEN]`, secretEnv('CORE_AGENT_HUB_TOKEN', 'hub-token', 'token')]] },
  { name: 'peer: the endpoint follows attach.port and fullnameOverride', values: [...PEER, 'attach.port=9443', 'fullnameOverride=sre-agent'], has: [['Recipe:peers.register.endpoint', 'http://sre-agent.core-agent.svc:9443']] },
  { name: 'peer: an explicit endpoint, labels and TTL', values: [...PEER, 'peers.register.endpoint=https://agent.prod.example.com', 'peers.register.labels.env=prod', 'peers.register.ttlSeconds=120'], has: [['Recipe:peers.register', { endpoint: 'https://agent.prod.example.com', labels: { env: 'prod' }, ttl_seconds: 120 }]] },
  { name: 'peer: explicit endpoint works without the Service', values: [...PEER, 'service.enabled=false', 'peers.register.endpoint=https://agent.prod.example.com'], has: [['Recipe:peers.register.endpoint', 'https://agent.prod.example.com']], lacks: ['Service'] },
  { name: 'peer needs the attach API', values: PEER.filter((v) => !v.startsWith('attach.')), fails: /peers\.register\.enabled=true needs attach\.enabled=true/ },
  { name: 'peer needs hubUrl', values: PEER.filter((v) => !v.includes('hubUrl')), fails: /needs peers\.register\.hubUrl/ },
  { name: 'peer needs its name', values: PEER.filter((v) => !v.includes('register.name')), fails: /needs peers\.register\.name: the name call_peer uses/ },
  { name: 'peer needs the hub token Secret', values: PEER.filter((v) => !v.includes('tokenSecret.name=hub')), fails: /needs peers\.register\.tokenSecret\.name/ },
  { name: 'peer without Service needs an endpoint', values: [...PEER, 'service.enabled=false'], fails: /service\.enabled=false needs peers\.register\.endpoint/ },
  { name: 'peer hubUrl must be http(s)', values: [...PEER, 'peers.register.hubUrl=ftp://hub'], fails: /\/peers\/register\/hubUrl/ },
  { name: 'peer hubUrl may not carry user@', values: [...PEER, 'peers.register.hubUrl=https://me:pw@hub'], fails: /\/peers\/register\/hubUrl/ },
  { name: 'peer TTL has a floor', values: [...PEER, 'peers.register.ttlSeconds=1'], fails: /\/peers\/register\/ttlSeconds.*minimum/ },
  { name: 'peer TTL has a ceiling', values: [...PEER, 'peers.register.ttlSeconds=301'], fails: /\/peers\/register\/ttlSeconds.*maximum/ },
  { name: 'peer name may carry capitals, dots, underscores', values: [...PEER, 'peers.register.name=Prod_EU.1'], has: [['Recipe:peers.register.name', 'Prod_EU.1']] },
  { name: 'peer name is at most 63 characters', values: [...PEER, `peers.register.name=${'a'.repeat(64)}`], fails: /\/peers\/register\/name/ },
  { name: 'peer name is a DNS-like label', values: [...PEER, 'peers.register.name=Prod EU'], fails: /\/peers\/register\/name/ },
  { name: 'peer: a misspelt key', values: [...PEER, 'peers.register.hub_url=x'], fails: /additional properties 'hub_url' not allowed/ },
  { name: 'peer on and the recipe has peers: too', values: [...PEER, 'recipe=watch: {}\npeers: {}\n'], fails: /the recipe has its own peers: section/ },

  // ---- helm test
  { name: 'helm test pod: agent image, agent ServiceAccount, Node on the script', values: [], has: [[TEST, { image: 'ghcr.io/core-agent/core-agent:0.1.0', command: ['/nodejs/bin/node', '/etc/core-agent-test/helm-test.mjs'] }], ['Pod:spec.serviceAccountName', 'core-agent'], ['Pod:metadata.annotations', { 'helm.sh/hook': 'test' }], [`${TEST}.env[name=READYZ_URL].value`, 'http://core-agent.core-agent.svc:8080/readyz']] },
  { name: 'helm test pod is not selected by the Service', values: [], has: [['Pod:metadata.labels', { 'app.kubernetes.io/name': 'core-agent-test' }]] },
  { name: 'helm test: cluster scope checks reads allowed and Secrets denied', values: [], has: [[`${TEST}.env[name=ACCESS_CHECKS].value`, expect.stringContaining('{"allowed":false,"resource":"secrets","verb":"get"}')]] },
  { name: 'helm test: namespaced scope checks each namespace and no cluster-wide list', values: ['rbac.scope=namespaced', 'rbac.namespaces={team-a}', 'recipe=watch: {namespaces: [team-a]}'], has: [[`${TEST}.env[name=ACCESS_CHECKS].value`, expect.stringMatching(/"namespace":"team-a","resource":"pods","verb":"list".*\{"allowed":false,"resource":"pods","verb":"list"\}/)]] },
  { name: 'helm test image and Node path are values', values: ['tests.image.repository=mirror.example.com/core-agent', 'tests.image.tag=1.2.3', 'tests.node=/usr/bin/node'], has: [[`${TEST}.image`, 'mirror.example.com/core-agent:1.2.3'], [`${TEST}.command[0]`, '/usr/bin/node']] },
  { name: 'helm test without the Service checks RBAC only', values: ['service.enabled=false'], lacks: [`${TEST}.env[name=READYZ_URL]`], has: [[`${TEST}.env[name=ACCESS_CHECKS].name`, 'ACCESS_CHECKS']] },
  { name: 'helm test off', values: ['tests.enabled=false'], lacks: ['Pod', 'ConfigMap/core-agent-test'] },
  { name: 'helm test pod reaches /readyz through a restricted ingress', values: [...NETPOL, 'networkPolicy.ingressFrom:=[{"namespaceSelector":{"matchLabels":{"team":"mon"}}}]'], has: [['NetworkPolicy:spec.ingress[0].from[1]', { podSelector: { matchLabels: { 'app.kubernetes.io/name': 'core-agent-test' } } }]] },
  { name: 'helm test off: no extra ingress peer', values: [...NETPOL, 'tests.enabled=false', 'networkPolicy.ingressFrom:=[{"namespaceSelector":{}}]'], lacks: ['NetworkPolicy:spec.ingress[0].from[1]'] },
  { name: 'helm test Node path must be absolute', values: ['tests.node=node'], fails: /\/tests\/node/ },

  // ---- ServiceMonitor
  { name: 'ServiceMonitor off by default', values: [], lacks: ['ServiceMonitor'] },
  { name: 'ServiceMonitor on: /metrics on the http port, the interval, its labels', values: ['metrics.serviceMonitor.enabled=true', 'metrics.serviceMonitor.labels.release=prom'], has: [['ServiceMonitor:spec.endpoints', [{ port: 'http', path: '/metrics', interval: '30s' }]], ['ServiceMonitor:metadata.labels', { release: 'prom', 'app.kubernetes.io/name': 'core-agent' }], ['ServiceMonitor:spec.selector.matchLabels', { 'app.kubernetes.io/instance': 'core-agent' }]], lacks: ['ServiceMonitor:spec.endpoints[0].scrapeTimeout'] },
  { name: 'ServiceMonitor scrapeTimeout', values: ['metrics.serviceMonitor.enabled=true', 'metrics.serviceMonitor.interval=1m', 'metrics.serviceMonitor.scrapeTimeout=20s'], has: [['ServiceMonitor:spec.endpoints[0]', { interval: '1m', scrapeTimeout: '20s' }]] },
  { name: 'ServiceMonitor needs the Service', values: ['metrics.serviceMonitor.enabled=true', 'service.enabled=false'], fails: /metrics\.serviceMonitor\.enabled=true needs service\.enabled=true/ },
  { name: 'ServiceMonitor interval needs a unit', values: ['metrics.serviceMonitor.enabled=true', 'metrics.serviceMonitor.interval=30'], fails: /\/metrics\/serviceMonitor\/interval/ },

  // ---- extra env, envFrom, volumes
  { name: 'extraEnvFrom after the model Secret', values: ['modelSecret.name=model', 'extraEnvFrom:=[{"configMapRef":{"name":"settings"}}]'], has: [[`${AGENT}.envFrom`, exact([{ secretRef: { name: 'model' } }, { configMapRef: { name: 'settings' } }])]] },
  { name: 'extraEnvFrom alone', values: ['extraEnvFrom:=[{"secretRef":{"name":"extra"}}]'], has: [[`${AGENT}.envFrom`, exact([{ secretRef: { name: 'extra' } }])]] },
  { name: 'no envFrom by default', values: [], lacks: [`${AGENT}.envFrom`] },
  { name: 'extraVolumes and extraVolumeMounts after the chart’s own', values: ['extraVolumes:=[{"name":"ca","configMap":{"name":"ca"}}]', 'extraVolumeMounts:=[{"name":"ca","mountPath":"/etc/ssl/corp","readOnly":true}]'], has: [[`${POD}.volumes[3]`, { name: 'ca', configMap: { name: 'ca' } }], [`${AGENT}.volumeMounts[3]`, { name: 'ca', mountPath: '/etc/ssl/corp' }]] },
  { name: 'extraVolumeMounts need a mountPath', values: ['extraVolumeMounts:=[{"name":"ca"}]'], fails: /\/extraVolumeMounts\/0.*mountPath/ },
  { name: 'extraVolumes need a name', values: ['extraVolumes:=[{"emptyDir":{}}]'], fails: /\/extraVolumes\/0.*name/ },
  { name: 'extraEnvFrom entries are objects', values: ['extraEnvFrom:=["settings"]'], fails: /\/extraEnvFrom\/0.*want object/ },

  // ---- securityContext: restricted by default, configurable within "restricted"
  { name: 'securityContext defaults: the agent', values: [], has: [[`${POD}.securityContext`, exact(DEFAULT_POD_SECURITY)], [`${AGENT}.securityContext`, exact(DEFAULT_CONTAINER_SECURITY)]] },
  { name: 'securityContext defaults: the helm test pod too', values: [], has: [['Pod:spec.securityContext', exact(DEFAULT_POD_SECURITY)], [`${TEST}.securityContext`, exact(DEFAULT_CONTAINER_SECURITY)]] },
  { name: 'another non-root user keeps the rest', values: ['podSecurityContext.runAsUser=10001'], has: [[`${POD}.securityContext`, exact({ ...DEFAULT_POD_SECURITY, runAsUser: 10001 })]] },
  { name: 'NET_BIND_SERVICE may be added', values: ['securityContext.capabilities.add={NET_BIND_SERVICE}'], has: [[`${AGENT}.securityContext.capabilities`, exact({ drop: ['ALL'], add: ['NET_BIND_SERVICE'] })]] },
  { name: 'a Localhost seccomp profile', values: ['podSecurityContext.seccompProfile.type=Localhost', 'podSecurityContext.seccompProfile.localhostProfile=profiles/agent.json'], has: [[`${POD}.securityContext.seccompProfile`, { type: 'Localhost', localhostProfile: 'profiles/agent.json' }]] },
  { name: 'privileged is refused', values: ['securityContext.privileged=true'], fails: /\/securityContext\/privileged': value must be false/ },
  { name: 'allowPrivilegeEscalation is refused', values: ['securityContext.allowPrivilegeEscalation=true'], fails: /\/securityContext\/allowPrivilegeEscalation': value must be false/ },
  { name: 'dropping allowPrivilegeEscalation is refused', values: ['securityContext.allowPrivilegeEscalation=null'], fails: /\/securityContext': missing property 'allowPrivilegeEscalation'/ },
  { name: 'pod runAsNonRoot false is refused', values: ['podSecurityContext.runAsNonRoot=false'], fails: /\/podSecurityContext\/runAsNonRoot': value must be true/ },
  { name: 'container runAsNonRoot false is refused', values: ['securityContext.runAsNonRoot=false'], fails: /\/securityContext\/runAsNonRoot': value must be true/ },
  { name: 'pod runAsUser 0 is refused', values: ['podSecurityContext.runAsUser=0'], fails: /\/podSecurityContext\/runAsUser.*minimum/ },
  { name: 'container runAsUser 0 is refused', values: ['securityContext.runAsUser=0'], fails: /\/securityContext\/runAsUser.*minimum/ },
  { name: 'added capabilities other than NET_BIND_SERVICE are refused', values: ['securityContext.capabilities.add={SYS_ADMIN}'], fails: /\/securityContext\/capabilities\/add\/0': value must be 'NET_BIND_SERVICE'/ },
  { name: 'drop must keep ALL', values: ['securityContext.capabilities.drop={NET_RAW}'], fails: /\/securityContext\/capabilities\/drop': no items match contains/ },
  { name: 'seccomp Unconfined is refused', values: ['podSecurityContext.seccompProfile.type=Unconfined'], fails: /\/podSecurityContext\/seccompProfile\/type/ },
  { name: 'removing the pod seccomp profile is refused', values: ['podSecurityContext.seccompProfile=null'], fails: /\/podSecurityContext': missing property 'seccompProfile'/ },
  { name: 'procMount Unmasked is refused', values: ['securityContext.procMount=Unmasked'], fails: /\/securityContext\/procMount/ },
  { name: 'a misspelt securityContext key', values: ['securityContext.privilegd=true'], fails: /additional properties 'privilegd' not allowed/ },
];
