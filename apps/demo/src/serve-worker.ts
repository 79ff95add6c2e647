// A worker process of `mosaic serve` / `mosaic mcp`: loads the index once and answers the pool's calls.
import { serveEngineInWorker } from '@mosaic/server';
import { type EngineSpec, openLocalEngine } from './serve-engine.js';

serveEngineInWorker((data) => openLocalEngine(data as EngineSpec));
