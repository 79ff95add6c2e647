export { buildFaissNode } from './build-faiss-node.mjs';
export { buildEmbeddedModel, EMBEDDED_MODEL_ID } from './build-embedded-model.mjs';
export { locateFaissNode, findInstalledPackage } from './locate-faiss-node.mjs';
export { runOfflineSetup } from './run-offline-setup.mjs';
export { OfflineSetupError } from './offline-setup-error.mjs';

/** @typedef {import('./run-offline-setup.mjs').OfflineSetupOptions} OfflineSetupOptions */
/** @typedef {import('./run-offline-setup.mjs').OfflineSetupResult} OfflineSetupResult */
