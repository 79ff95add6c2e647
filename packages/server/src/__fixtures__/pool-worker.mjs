// A worker process of the pool tests: loads the index at data.dir and serves a local engine. A question
// starting with "slow:" waits data.slowMs first (to hold a worker busy); data.warmUp sets the warm-up.
import { loadIndex } from '@mosaic/indexing';
import { createMosaic } from '@mosaic/pipeline';
import { createLocalEngine, serveEngineInWorker } from '@mosaic/server';
import { openFixtureEncoder } from '@mosaic/server/testing';

let warmUpQuestions = 0;
serveEngineInWorker(
  async (data) => {
    if (data.fail) throw new Error('cannot open the index on purpose');
    const encoder = await openFixtureEncoder(data.encoder);
    const index = await loadIndex({ dir: data.dir, encoder });
    const engine = createLocalEngine({ mosaic: createMosaic({ index }), index });
    warmUpQuestions = data.warmUp ?? 0;
    return {
      ...engine,
      async retrieve(request, call) {
        if (request.question.startsWith('slow:')) await new Promise((resolve) => setTimeout(resolve, data.slowMs ?? 0));
        const result = await engine.retrieve(request, call);
        return { ...result, timings: { ...result.timings, workerPid: process.pid } };
      },
      async warmUp(options) {
        const report = await engine.warmUp(options);
        process.stderr.write(`${JSON.stringify({ event: 'warmed-up', questions: warmUpQuestions, ...report })}\n`);
        return report;
      },
    };
  },
  { warmUpQuestions: 8 },
);
