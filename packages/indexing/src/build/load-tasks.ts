/** A task of the index load worker (see load-worker.ts): a faiss file's stored vectors, a gzip file, a gzip'd BM25 state, or gzip'd sentence tokens. */
export type LoadTask = { gunzip: string } | { bm25: string } | { vectors: string } | { sentences: string };

/** The file a task reads. */
export function taskPath(task: LoadTask): string {
  if ('gunzip' in task) return task.gunzip;
  if ('bm25' in task) return task.bm25;
  return 'sentences' in task ? task.sentences : task.vectors;
}
