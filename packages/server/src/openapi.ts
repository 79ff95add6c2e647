import { z } from 'zod';
import {
  AskRequestSchema,
  AskResponseSchema,
  DocumentResponseSchema,
  ErrorResponseSchema,
  PolicyRequestSchema,
  PolicyResponseSchema,
  RetrieveRequestSchema,
  RetrieveResponseSchema,
} from './schemas.js';

const SCHEMAS = {
  PolicyRequest: [PolicyRequestSchema, 'input'],
  RetrieveRequest: [RetrieveRequestSchema, 'input'],
  AskRequest: [AskRequestSchema, 'input'],
  PolicyResponse: [PolicyResponseSchema, 'output'],
  RetrieveResponse: [RetrieveResponseSchema, 'output'],
  AskResponse: [AskResponseSchema, 'output'],
  Document: [DocumentResponseSchema, 'output'],
  Error: [ErrorResponseSchema, 'output'],
} as const;

const ref = (name: keyof typeof SCHEMAS) => ({ $ref: `#/components/schemas/${name}` });
const json = (name: keyof typeof SCHEMAS) => ({ 'application/json': { schema: ref(name) } });
const errors = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((status) => [String(status), { description: ERROR_TEXT[status] ?? 'Error', content: json('Error') }]));
const ERROR_TEXT: Record<number, string> = {
  400: 'Malformed request: bad JSON, or a field of the wrong type or out of range (error.field names it)',
  401: 'Missing or wrong bearer token',
  404: 'No such route or document',
  413: 'Body larger than the limit',
  415: 'Body is not application/json',
  503: 'Not ready yet, or shutting down',
  504: 'The request took longer than the per-request timeout',
};

function post(summary: string, request: keyof typeof SCHEMAS, response: keyof typeof SCHEMAS, stream?: string) {
  return {
    post: {
      summary,
      requestBody: { required: true, content: json(request) },
      responses: {
        '200': {
          description: stream ? `${response}; with Accept: text/event-stream, ${stream}` : response,
          content: { ...json(response), ...(stream ? { 'text/event-stream': { schema: { type: 'string' } } } : {}) },
        },
        ...errors(400, 401, 413, 415, 503, 504),
      },
    },
  };
}

/**
 * The OpenAPI 3.0 document of the API, generated from the same zod schemas that validate the requests
 * (`z.toJSONSchema`, requests as their input type, responses as their output type).
 */
export function openApiDocument(info: { title?: string; version?: string } = {}): Record<string, unknown> {
  const schemas = Object.fromEntries(
    Object.entries(SCHEMAS).map(([name, [schema, io]]) => {
      const { $schema: _dropped, ...jsonSchema } = z.toJSONSchema(schema, { target: 'openapi-3.0', io, unrepresentable: 'any' }) as Record<string, unknown>;
      return [name, jsonSchema];
    }),
  );
  const events = 'server-sent events policy, seeds, stop, windows, answer as the stages finish, then result (the JSON response) and done; error on failure';
  return {
    openapi: '3.0.3',
    info: { title: info.title ?? 'Mosaic retrieval API', version: info.version ?? '0.1.0' },
    components: { schemas, securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    security: [{ bearer: [] }, {}],
    paths: {
      '/v1/retrieve': post('Ranked source windows for a question', 'RetrieveRequest', 'RetrieveResponse', events.replace(', answer', '')),
      '/v1/ask': post('Retrieval, then an answer with citations', 'AskRequest', 'AskResponse', events),
      '/v1/policy': post('The policy the analyzer chooses for a question (no retrieval)', 'PolicyRequest', 'PolicyResponse'),
      '/v1/documents': {
        get: {
          summary: 'The indexed documents (id, corpus, title, characters)',
          responses: { '200': { description: 'documents', content: { 'application/json': { schema: { type: 'object' } } } }, ...errors(401) },
        },
      },
      '/v1/documents/{id}': {
        get: {
          summary: 'One indexed document',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { '200': { description: 'the document', content: json('Document') }, ...errors(401, 404) },
        },
      },
      '/healthz': { get: { summary: 'Liveness', security: [], responses: { '200': { description: 'alive' } } } },
      '/readyz': {
        get: {
          summary: 'Readiness: 200 once the index is loaded, 503 while starting or draining',
          security: [],
          responses: { '200': { description: 'ready' }, '503': { description: 'not ready' } },
        },
      },
      '/metrics': {
        get: {
          summary: 'Prometheus metrics (text exposition format)',
          responses: { '200': { description: 'metrics', content: { 'text/plain': { schema: { type: 'string' } } } } },
        },
      },
      '/openapi.json': { get: { summary: 'This document', responses: { '200': { description: 'OpenAPI 3.0 document' } } } },
    },
  };
}
