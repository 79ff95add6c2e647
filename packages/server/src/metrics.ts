import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** The server's Prometheus metrics, on a registry of its own (nothing global). */
export interface ServerMetrics {
  registry: Registry;
  requests: Counter<'method' | 'route' | 'status'>;
  duration: Histogram<'route'>;
  inFlight: Gauge;
  aborted: Counter<'route' | 'reason'>;
  stages: Histogram<'stage'>;
}

export function createServerMetrics(options: { registry?: Registry; defaultMetrics?: boolean } = {}): ServerMetrics {
  const registry = options.registry ?? new Registry();
  if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: registry });
  const registers = [registry];
  return {
    registry,
    requests: new Counter({
      name: 'mosaic_http_requests_total',
      help: 'HTTP requests answered, by method, route and status.',
      labelNames: ['method', 'route', 'status'],
      registers,
    }),
    duration: new Histogram({
      name: 'mosaic_http_request_duration_seconds',
      help: 'Time from a request’s arrival to its last byte, by route.',
      labelNames: ['route'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    }),
    inFlight: new Gauge({ name: 'mosaic_http_requests_in_flight', help: 'Requests being answered.', registers }),
    aborted: new Counter({
      name: 'mosaic_requests_aborted_total',
      help: 'Pipelines aborted, by route and reason (client disconnected, timeout, shutdown).',
      labelNames: ['route', 'reason'],
      registers,
    }),
    stages: new Histogram({
      name: 'mosaic_stage_duration_seconds',
      help: 'Pipeline stage durations of answered requests.',
      labelNames: ['stage'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5],
      registers,
    }),
  };
}
