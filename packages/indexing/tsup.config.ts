import { packageBuild } from '../../tsup.shared';

// The worker modules are their own entries: dist/extract-worker.js, dist/bm25-worker.js and dist/load-worker.js, next to the bundle that starts it.
export default packageBuild([], {
  entry: {
    index: 'src/index.ts',
    internal: 'src/internal.ts',
    'extract-worker': 'src/build/extract-worker.ts',
    'bm25-worker': 'src/build/bm25-worker.ts',
    'load-worker': 'src/build/load-worker.ts',
  },
});
