import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type EndpointSpec, endpointPath, errorSchemas, teamParamOf } from './endpoint.js';
import { ENDPOINTS, PATHS } from './endpoints/index.js';

const all: Array<[string, EndpointSpec]> = Object.entries(ENDPOINTS).flatMap(([group, eps]) =>
  Object.entries(eps as Record<string, EndpointSpec>).map(([name, ep]): [string, EndpointSpec] => [
    `${group}.${name}`,
    ep,
  ]),
);
const pathNames = (path: string) => [...path.matchAll(/:([A-Za-z_]\w*)/g)].map((m) => m[1]);

describe('endpoints', () => {
  it('each (method, path) is defined once, under one of the three API prefixes', () => {
    const keys = all.map(([, ep]) => `${ep.method} ${ep.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const [name, ep] of all) expect(ep.path, name).toMatch(/^\/(api|auth|stats)\//);
  });

  it('every path parameter has its schema, and no schema field is missing from the path', () => {
    for (const [name, ep] of all) {
      const shape = ep.params instanceof z.ZodObject ? Object.keys(ep.params.shape) : [];
      expect(shape.sort(), name).toEqual(pathNames(ep.path).sort());
    }
  });

  it('signed-in calls document 401, supervisor calls 403, limited calls 429', () => {
    for (const [name, ep] of all) {
      const codes = Object.keys(errorSchemas(ep)).map(Number);
      if (ep.access === 'user' || ep.access === 'supervisor') expect(codes, name).toContain(401);
      if (ep.access === 'supervisor') expect(codes, name).toContain(403);
      if (ep.access === 'guest') expect(codes, name).toContain(429);
    }
  });

  it('a call naming an action is a signed-in call whose path names its team, and may answer 404', () => {
    const named = all.filter(([, ep]) => ep.action);
    expect(named.length).toBeGreaterThan(40);
    for (const [name, ep] of named) {
      expect(ep.access, name).toBe('user');
      expect(teamParamOf(ep), name).toBeDefined();
      expect(ep.errors, name).toContain(404);
    }
  });

  it('builds paths: parameters encoded, query fields without a value left out', () => {
    expect(PATHS.keys.read(3, 7)).toBe('/api/v1/keys/3/7');
    expect(PATHS.auth.checkHash('a/b c')).toBe('/auth/guest/check_hash/a%2Fb%20c');
    expect(endpointPath(ENDPOINTS.audit.read, {}, { team_id: undefined, page: 2 })).toBe(
      '/api/v1/supervisor/audit?page=2',
    );
    expect(() => endpointPath(ENDPOINTS.keys.read, { teamId: 1 })).toThrow(/id/);
  });
});
