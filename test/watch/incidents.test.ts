import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { eventFacts, ignoreReason, incidentKey, labelsMatch, parseLabelSelector, verdictOf } from '../../src/watch/incidents.ts';
import { recipeProblems } from '../helpers/recipe.ts';

const NOW = Date.parse('2026-11-30T12:00:00Z');

function event(over: Record<string, unknown> = {}) {
  return {
    metadata: { uid: 'e1', namespace: 'shop', creationTimestamp: '2026-11-30T11:59:00Z' },
    involvedObject: { kind: 'Pod', apiVersion: 'v1', name: 'web-1', namespace: 'shop', uid: 'p1' },
    type: 'Warning',
    reason: 'BackOff',
    message: 'Back-off restarting failed container',
    lastTimestamp: '2026-11-30T11:59:30Z',
    count: 4,
    ...over,
  };
}

const facts = (over: Record<string, unknown> = {}) => eventFacts(event(over))!;

describe('eventFacts', () => {
  it('reads the object, the reason, the count and the best timestamp', () => {
    expect(facts()).toMatchObject({
      uid: 'e1',
      reason: 'BackOff',
      namespace: 'shop',
      involved: { kind: 'Pod', name: 'web-1', namespace: 'shop', uid: 'p1' },
      lastAt: Date.parse('2026-11-30T11:59:30Z'),
      count: 4,
    });
  });

  it('prefers series.lastObservedTime and series.count (events.k8s.io-style series)', () => {
    const f = facts({ lastTimestamp: null, count: undefined, series: { count: 9, lastObservedTime: '2026-11-30T11:59:50.123456Z' } });
    expect(f.count).toBe(9);
    expect(f.lastAt).toBe(Date.parse('2026-11-30T11:59:50.123Z'));
  });

  it('is null for a version marker or an event about nothing', () => {
    expect(eventFacts({})).toBeNull();
    expect(eventFacts(event({ involvedObject: {} }))).toBeNull();
  });
});

describe('ignoreReason', () => {
  it('passes a fresh Warning with a watched reason', () => {
    expect(ignoreReason(facts(), {}, NOW)).toBeNull();
  });

  it.each<[string, Record<string, unknown>, Parameters<typeof ignoreReason>[1]]>([
    ['type', { type: 'Normal' }, {}],
    ['reason', { reason: 'Pulled' }, {}],
    ['namespace', {}, { namespaces: ['other'] }],
    ['namespace', {}, { exclude_namespaces: ['shop'] }],
    ['old', { lastTimestamp: '2026-11-30T11:00:00Z' }, {}],
  ])('ignores by %s', (why, over, cfg) => {
    expect(ignoreReason(facts(over), cfg, NOW)).toBe(why);
  });

  it('kube-system is excluded by default; reasons: [] takes any reason', () => {
    expect(ignoreReason(facts({ involvedObject: { kind: 'Pod', name: 'x', namespace: 'kube-system' } }), {}, NOW)).toBe('namespace');
    expect(ignoreReason(facts({ reason: 'Anything' }), { reasons: [] }, NOW)).toBeNull();
  });
});

describe('keys, selectors and verdicts', () => {
  it('keys an incident by workload and reason', () => {
    expect(incidentKey({ kind: 'Deployment', namespace: 'shop', name: 'web' }, 'BackOff')).toBe('Deployment/shop/web|BackOff');
  });

  it('parses and matches equality selectors', () => {
    const sel = parseLabelSelector('tier=web, env!=dev,app==shop');
    expect(sel).toEqual([
      { key: 'tier', op: '=', value: 'web' },
      { key: 'env', op: '!=', value: 'dev' },
      { key: 'app', op: '=', value: 'shop' },
    ]);
    expect(labelsMatch(sel, { tier: 'web', app: 'shop', env: 'prod' })).toBe(true);
    expect(labelsMatch(sel, { tier: 'web', app: 'shop', env: 'dev' })).toBe(false);
    expect(labelsMatch(sel, undefined)).toBe(false);
    expect(() => parseLabelSelector('tier')).toThrow(/bad label selector term "tier"/);
  });

  it('reads the verdict from the first word, UNRESOLVED unless it says RESOLVED', () => {
    expect(verdictOf('RESOLVED: rolled back')).toBe('RESOLVED');
    expect(verdictOf('**RESOLVED** — verified')).toBe('RESOLVED');
    expect(verdictOf('UNRESOLVED: proposal …')).toBe('UNRESOLVED');
    expect(verdictOf('I think it is resolved')).toBe('UNRESOLVED');
    expect(verdictOf('')).toBe('UNRESOLVED');
  });
});

describe('the watch: recipe section', () => {
  it('accepts an empty section and a full one', async () => {
    expect(await recipeProblems('watch: {}\n')).toEqual([]);
    expect(
      await recipeProblems(
        [
          'alerts: { targets: { oncall: { url_env: HOOK } } }',
          'watch:',
          '  event_types: [Warning]',
          '  reasons: [BackOff]',
          '  namespaces: [shop]',
          '  label_selector: tier=web,env!=dev',
          '  cooldown_seconds: 60',
          '  max_concurrent_sessions: 4',
          '  alert_target: oncall',
        ].join('\n'),
      ),
    ).toEqual([]);
  });

  it('names the field and the fix', async () => {
    expect((await recipeProblems('watch: { cooldown_secs: 5 }\n')).join('\n')).toMatch(/unknown key "cooldown_secs".*cooldown_seconds/);
    expect((await recipeProblems('watch: { max_concurrent_sessions: 0 }\n')).join('\n')).toMatch(/max_concurrent_sessions/);
    expect((await recipeProblems('watch: { label_selector: "tier in (a,b)" }\n')).join('\n')).toMatch(/label selector of key=value/);
    expect((await recipeProblems('watch: { alert_target: oncall }\n')).join('\n')).toMatch(
      /alert target "oncall" is not declared: add it under alerts.targets/,
    );
    expect((await recipeProblems('alerts: { targets: { sre: { url_env: H } } }\nwatch: { alert_target: oncal }\n')).join('\n')).toMatch(
      /watch.alert_target|unknown alert target "oncal"/,
    );
  });
});

describe('the shipped watch recipe', () => {
  const root = new URL('../../', import.meta.url);
  const read = (p: string) => readFileSync(new URL(p, root), 'utf8');
  const body = (text: string) =>
    text
      .slice(text.indexOf('instructions:'))
      .replace(/^ {2}dirs: \[.*$/m, '  dirs: <skills>')
      .trim();

  it('recipes/k8s-watch.yaml and the Helm chart default are one recipe (only the skills path differs)', () => {
    expect(body(read('recipes/k8s-watch.yaml'))).toBe(body(read('helm/core-agent/files/recipe.yaml')));
  });

  it('is valid', async () => {
    expect(await recipeProblems(read('recipes/k8s-watch.yaml'))).toEqual([]);
  });
});
