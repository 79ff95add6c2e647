import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { createOpenAIClient } from './create-openai-client.js';

const saved = { key: process.env.OPENAI_API_KEY, url: process.env.OPENAI_BASE_URL };
beforeEach(() => {
  delete process.env.OPENAI_API_KEY;
  delete process.env.OPENAI_BASE_URL;
});
afterEach(() => {
  for (const [name, value] of [
    ['OPENAI_API_KEY', saved.key],
    ['OPENAI_BASE_URL', saved.url],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

describe('createOpenAIClient', () => {
  it('returns a given client as is', () => {
    const client = new OpenAI({ apiKey: 'mine', baseURL: 'http://127.0.0.1:1/v1' });
    expect(createOpenAIClient({ client, apiKey: 'ignored' })).toBe(client);
  });

  it('uses the options over the environment, with the client retries off', () => {
    process.env.OPENAI_API_KEY = 'env-key';
    process.env.OPENAI_BASE_URL = 'http://127.0.0.1:9/v1';
    const client = createOpenAIClient({ apiKey: 'option-key', baseURL: 'http://127.0.0.1:8/v1' });
    expect(client.apiKey).toBe('option-key');
    expect(client.baseURL).toBe('http://127.0.0.1:8/v1');
    expect(client.maxRetries).toBe(0);
  });

  it('falls back to OPENAI_API_KEY and OPENAI_BASE_URL', () => {
    process.env.OPENAI_API_KEY = 'env-key';
    process.env.OPENAI_BASE_URL = 'http://127.0.0.1:9/v1';
    const client = createOpenAIClient({});
    expect(client.apiKey).toBe('env-key');
    expect(client.baseURL).toBe('http://127.0.0.1:9/v1');
  });

  it("allows a missing key with a base URL (key 'no-key')", () => {
    expect(createOpenAIClient({ baseURL: 'http://127.0.0.1:8/v1' }).apiKey).toBe('no-key');
    process.env.OPENAI_BASE_URL = 'http://127.0.0.1:9/v1';
    expect(createOpenAIClient({}).apiKey).toBe('no-key');
  });

  it('throws InvalidArgumentError without key and base URL', () => {
    let error: unknown;
    try {
      createOpenAIClient({});
    } catch (caught) {
      error = caught;
    }
    expect(error).toMatchObject({ name: 'MosaicInvalidArgumentError', argument: 'apiKey' });
  });
});
