import { packageBuild } from '../../tsup.shared';

// The extraction worker is its own entry: dist/extract-worker.js, next to the bundle that starts it.
export default packageBuild([], { entry: { index: 'src/index.ts', internal: 'src/internal.ts', 'extract-worker': 'src/build/extract-worker.ts' } });
