import { describe, expect, it } from 'vitest';
import { newId, randomString } from '../src/core/ids.js';
import { roleAtLeast, ROLES, strongestRole } from '../src/access/roles.js';
import { scopesAllow } from '../src/access/scopes.js';
import { createUrls } from '../src/core/urls.js';

describe('roles', () => {
  it('order read < comment < review < edit < create < admin', () => {
    expect(ROLES).toEqual(['read', 'comment', 'review', 'edit', 'create', 'admin']);
    expect(roleAtLeast('edit', 'review')).toBe(true);
    expect(roleAtLeast('review', 'edit')).toBe(false);
    expect(roleAtLeast('admin', 'admin')).toBe(true);
    expect(roleAtLeast(null, 'read')).toBe(false);
    expect(roleAtLeast(undefined, 'read')).toBe(false);
  });

  it('combine to the strongest, ignoring missing ones', () => {
    expect(strongestRole('read', null, 'edit', undefined, 'comment')).toBe('edit');
    expect(strongestRole(null, undefined)).toBeNull();
    expect(strongestRole('admin', 'create')).toBe('admin');
  });
});

describe('ids', () => {
  it('are 20 characters of [A-Za-z0-9], unique, and use every character', () => {
    const ids = Array.from({ length: 5000 }, newId);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids.join('')).size).toBe(62);
  });

  it('spread characters evenly', () => {
    const sample = randomString(62_000);
    const counts = new Map<string, number>();
    for (const c of sample) counts.set(c, (counts.get(c) ?? 0) + 1);
    // 1,000 expected per character; a biased generator (modulo 62 of a byte) would skew the first 8 by a quarter.
    for (const count of counts.values()) expect(count).toBeGreaterThan(850);
    for (const count of counts.values()) expect(count).toBeLessThan(1150);
  });
});

describe('scopes', () => {
  it('allow everything to a token without scopes, and a :write scope its :read', () => {
    expect(scopesAllow(null, 'organization:write')).toBe(true);
    expect(scopesAllow(['organization:write'], 'organization:read')).toBe(true);
    expect(scopesAllow(['organization:read'], 'organization:write')).toBe(false);
    expect(scopesAllow(['space:write'], 'organization:read')).toBe(false);
    expect(scopesAllow([], 'user:read')).toBe(false);
  });
});

describe('urls', () => {
  it('are absolute, under the public URL, with segments encoded', () => {
    const urls = createUrls('https://docs.example.com/base/');
    expect(urls.api('orgs', 'abc')).toBe('https://docs.example.com/base/v1/orgs/abc');
    expect(urls.app('o', 'a/b c')).toBe('https://docs.example.com/base/app/o/a%2Fb%20c');
  });
});
