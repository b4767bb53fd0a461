// `helm test` for the core-agent chart, run by Node in the agent's own (distroless,
// shell-less) image. Two checks, each line printed as "ok …" or "FAIL …"; exit 1 on
// any failure:
//  1. readiness: GET $READYZ_URL (the Service's /readyz) answers 200;
//  2. RBAC: for each entry of $ACCESS_CHECKS (JSON: [{verb, resource, group?,
//     subresource?, namespace?, allowed}]) a SelfSubjectAccessReview, made with this
//     pod's ServiceAccount token (the agent's ServiceAccount), answers `allowed`.
// The API server is https://$KUBERNETES_SERVICE_HOST:$KUBERNETES_SERVICE_PORT, trusted
// through NODE_EXTRA_CA_CERTS (the ServiceAccount's ca.crt). KUBE_API_URL and
// SERVICE_ACCOUNT_DIR override them (the chart's own tests use a fake API on loopback).
import { readFileSync } from 'node:fs';

const TIMEOUT_MS = 10_000;
const saDir = process.env.SERVICE_ACCOUNT_DIR || '/var/run/secrets/kubernetes.io/serviceaccount';
const failures = [];
// fetch says only "fetch failed"; the cause says why (a refused connection, an untrusted CA).
const reason = (err) => (err.cause ? `${err.message}: ${err.cause.code ?? err.cause.message}` : err.message);
const report = (ok, what) => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures.push(what);
};

function apiBase() {
  if (process.env.KUBE_API_URL) return process.env.KUBE_API_URL.replace(/\/$/, '');
  const host = process.env.KUBERNETES_SERVICE_HOST;
  const port = process.env.KUBERNETES_SERVICE_PORT || '443';
  if (!host) throw new Error('KUBERNETES_SERVICE_HOST is not set: not running in a pod?');
  return `https://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

async function readiness(url) {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
    report(res.status === 200, `GET ${url} → ${res.status} (want 200: the event informer has synced)`);
  } catch (err) {
    report(false, `GET ${url}: ${reason(err)}`);
  }
}

function describe(c) {
  const what = `${c.verb} ${c.group ? `${c.resource}.${c.group}` : c.resource}${c.subresource ? `/${c.subresource}` : ''}`;
  return `${what} ${c.namespace ? `in ${c.namespace}` : 'cluster-wide'}`;
}

async function access(base, token, check) {
  const want = check.allowed ? 'allowed' : 'denied';
  const review = {
    apiVersion: 'authorization.k8s.io/v1',
    kind: 'SelfSubjectAccessReview',
    spec: {
      resourceAttributes: {
        verb: check.verb,
        resource: check.resource,
        group: check.group ?? '',
        subresource: check.subresource ?? '',
        namespace: check.namespace ?? '',
      },
    },
  };
  try {
    const res = await fetch(`${base}/apis/authorization.k8s.io/v1/selfsubjectaccessreviews`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(review),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (res.status !== 201 && res.status !== 200) {
      report(false, `${describe(check)}: the API server answered ${res.status} (${(await res.text()).slice(0, 200)})`);
      return;
    }
    const allowed = (await res.json())?.status?.allowed === true;
    report(allowed === check.allowed, `${describe(check)}: ${allowed ? 'allowed' : 'denied'} (want ${want})`);
  } catch (err) {
    report(false, `${describe(check)}: ${reason(err)}`);
  }
}

const checks = JSON.parse(process.env.ACCESS_CHECKS || '[]');
if (process.env.READYZ_URL) await readiness(process.env.READYZ_URL);
if (checks.length) {
  let token, base;
  try {
    token = readFileSync(`${saDir}/token`, 'utf8').trim();
    base = apiBase();
  } catch (err) {
    report(false, `the ServiceAccount's API access: ${err.message}`);
  }
  if (base) for (const check of checks) await access(base, token, check);
}
console.log(failures.length ? `${failures.length} check(s) failed` : 'all checks passed');
process.exit(failures.length ? 1 : 0);
