import { packageBuild } from '../../tsup.shared';

export default packageBuild(['src/index.ts', 'src/internal.ts', 'src/sample-corpus.ts']);
