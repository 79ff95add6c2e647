import { afterEach, describe, expect, it } from 'vitest';
import { databaseName, storeTarget, storeWriteWarning } from './store-options.js';

const saved = { user: process.env.SURREAL_USER, pass: process.env.SURREAL_PASS, token: process.env.SURREAL_TOKEN };
afterEach(() => {
  for (const [key, value] of [
    ['SURREAL_USER', saved.user],
    ['SURREAL_PASS', saved.pass],
    ['SURREAL_TOKEN', saved.token],
  ] as const) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});

describe('--store flags', () => {
  it('name a database after the corpus', () => {
    expect(['Medical', 'Novel-30752', '2wiki', 'a b.c'].map(databaseName)).toEqual(['Medical', 'Novel_30752', '_2wiki', 'a_b_c']);
  });

  it('sign in as root, a namespace or a database user from the flags, else the environment, else with a token', () => {
    delete process.env.SURREAL_USER;
    delete process.env.SURREAL_PASS;
    delete process.env.SURREAL_TOKEN;
    const url = 'wss://surreal.example.internal';
    expect(storeTarget({ store: url }, 'Medical')).toEqual({ url, namespace: 'mosaic', database: 'Medical', connectTimeoutMs: 10_000 });
    expect(storeTarget({ store: url, user: 'root', pass: 'secret' }, 'Medical').authentication).toEqual({ username: 'root', password: 'secret' });
    expect(storeTarget({ store: url, user: 'reader', pass: 'p', 'auth-level': 'namespace', namespace: 'prod' }, 'Medical').authentication).toEqual({
      namespace: 'prod',
      username: 'reader',
      password: 'p',
    });
    expect(storeTarget({ store: url, user: 'reader', pass: 'p', 'auth-level': 'database', database: 'med' }, 'Medical')).toMatchObject({
      database: 'med',
      authentication: { namespace: 'mosaic', database: 'med', username: 'reader', password: 'p' },
    });
    process.env.SURREAL_USER = 'envuser';
    process.env.SURREAL_PASS = 'envpass';
    expect(storeTarget({ store: url }, 'Medical').authentication).toEqual({ username: 'envuser', password: 'envpass' });
    expect(storeTarget({ store: url, user: 'flag' }, 'Medical').authentication).toEqual({ username: 'flag', password: 'envpass' });
    delete process.env.SURREAL_USER;
    process.env.SURREAL_TOKEN = 'eyJ.token';
    expect(storeTarget({ store: url, 'connect-timeout': '2500' }, 'Medical')).toMatchObject({ authentication: 'eyJ.token', connectTimeoutMs: 2500 });
  });

  it('refuse a missing database, an unknown auth level and a bad timeout as usage errors', () => {
    expect(() => storeTarget({ store: 'mem://' }, undefined)).toThrow(expect.objectContaining({ name: 'MosaicCliError' }));
    expect(() => storeTarget({ store: 'mem://', 'auth-level': 'scope' }, 'x')).toThrow(expect.objectContaining({ name: 'MosaicCliError' }));
    expect(() => storeTarget({ store: 'mem://', 'connect-timeout': '0' }, 'x')).toThrow(expect.objectContaining({ name: 'MosaicCliError' }));
  });
});

describe('storeWriteWarning', () => {
  it('warns for surrealkv only', () => {
    expect(storeWriteWarning('surrealkv:///var/db')).toMatch(/rocksdb:\/\//);
    expect(storeWriteWarning('surrealkv+versioned:///var/db')).toBeDefined();
    expect(storeWriteWarning('rocksdb:///var/db')).toBeUndefined();
    expect(storeWriteWarning('wss://surreal.example')).toBeUndefined();
  });
});
