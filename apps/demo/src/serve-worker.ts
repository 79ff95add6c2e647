// A worker process of `mosaic serve` / `mosaic mcp`: loads the index once and answers the pool's calls.
import { serveEngineInWorker } from '@mosaic/server';
import { type EngineSpec, openLocalEngine } from './serve-engine.js';

// The warm-up runs in openLocalEngine (its size is a flag of the command).
serveEngineInWorker((data) => openLocalEngine(data as EngineSpec), { warmUpQuestions: 0 });
