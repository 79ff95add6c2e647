export { createMosaicServer, isLoopback, type ListenOptions, type MosaicServer, type MosaicServerOptions, type ServerLogEntry } from './server.js';
export {
  createLocalEngine,
  deferEngine,
  warmUpQuestions,
  retrieveResponse,
  windowResponse,
  type DocumentSummary,
  type EngineCallOptions,
  type LocalEngineOptions,
  type MosaicEngine,
  type ProgressEvent,
  type WarmUpOptions,
  type WarmUpReport,
} from './engine.js';
export { createWorkerPool, serveEngineInWorker, type ServeEngineInWorkerOptions, type WorkerPool, type WorkerPoolOptions } from './worker-pool.js';
export { WorkerExitedError } from './worker-exited-error.js';
export { HttpError } from './http-error.js';
export { createServerMetrics, type ServerMetrics } from './metrics.js';
export { openApiDocument } from './openapi.js';
export * from './schemas.js';
