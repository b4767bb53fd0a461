import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { osPrincipalName, principal, userHome } from '../../src/core/principal.ts';
import { SettingsError } from '../../src/core/settings-error.ts';
import { terminalPrincipal } from '../../src/runtime/state-dir.ts';

describe('principals and homes', () => {
  it.each([
    ['alice', 'alice'],
    ['first.last', 'first.last'],
    ['DOMAIN\\bob', 'DOMAIN_bob'],
    ['1000', 'u1000'],
    ['_svc', 'u_svc'],
    ['a/b', 'a_b'],
    ['', 'u'],
    ['x'.repeat(100), 'x'.repeat(63)],
  ])('the OS account %j is the principal %j', (account, name) => {
    expect(osPrincipalName(account)).toBe(name);
  });

  it.each([['..'], ['.'], ['a/b'], [''], ['-x'], ['x'.repeat(65)], ['ä']])('refuses the name %j', (name) => {
    expect(() => principal(name)).toThrow(/not a valid name/);
    expect(() => principal('alice', { group: name })).toThrow(/group/);
    expect(() => principal('alice', { tenant: name })).toThrow(/tenant/);
  });

  it('is never an admin or a service unless configured', () => {
    expect(principal('admin')).toMatchObject({ admin: false, service: false });
    expect(principal('ops', { admin: true })).toMatchObject({ admin: true });
  });

  it('puts a home one folder below users/, and shared skills under the group and tenant', () => {
    const h = userHome('/state', principal('alice', { group: 'sre', tenant: 'acme' }));
    expect(h.root).toBe(path.join('/state', 'users', 'alice'));
    expect(h.memories).toBe(path.join(h.root, 'memories'));
    expect(h.groupSkills).toBe(path.join('/state', 'groups', 'sre', 'skills'));
    expect(h.tenantSkills).toBe(path.join('/state', 'tenants', 'acme', 'skills'));
    expect(userHome('/state', principal('bob')).groupSkills).toBeUndefined();
  });

  it('takes the terminal user from CORE_AGENT_USER, then $USER, and refuses a bad name as a setting', () => {
    expect(terminalPrincipal({ CORE_AGENT_USER: 'carol', USER: 'x' }).name).toBe('carol');
    expect(terminalPrincipal({ USER: 'dave' }).name).toBe('dave');
    expect(terminalPrincipal({ LOGNAME: 'erin' }).name).toBe('erin');
    expect(() => terminalPrincipal({ CORE_AGENT_USER: '../x' })).toThrow(SettingsError);
  });
});
