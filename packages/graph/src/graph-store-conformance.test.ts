import { runGraphStoreConformance } from './graph-store-conformance.js';
import { GraphologyGraphStore, createKnowledgeGraph } from './graphology-graph-store.js';

runGraphStoreConformance({
  name: 'GraphologyGraphStore',
  create: ({ fixture }) => {
    const graph = createKnowledgeGraph();
    for (const { id, ...attributes } of fixture.nodes) graph.addNode(id, attributes);
    for (const { id, source, target, ...attributes } of fixture.edges) graph.addEdgeWithKey(id, source, target, attributes);
    return new GraphologyGraphStore({ graph });
  },
});
