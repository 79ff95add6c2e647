/** The three vector (and lexical) tables of a corpus index. */
export type VectorKind = 'entities' | 'relations' | 'windows';

/** The vector kinds in the order an index lists, writes and loads them. */
export const VECTOR_KINDS: readonly VectorKind[] = Object.freeze(['entities', 'relations', 'windows'] as const);
