/** A task of the index load worker (see load-worker.ts): a faiss file's stored vectors, a gzip file, or a gzip'd BM25 state. */
export type LoadTask = { gunzip: string } | { bm25: string } | { vectors: string };

/** The file a task reads. */
export function taskPath(task: LoadTask): string {
  return 'gunzip' in task ? task.gunzip : 'bm25' in task ? task.bm25 : task.vectors;
}
