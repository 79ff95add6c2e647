import { packageBuild } from '../../tsup.shared';

export default packageBuild(['src/index.ts', 'src/hand-built-index.ts', 'src/conformance.ts']);
