import { metricTokenSet } from '@mosaic/stage-utils';

/** Evidence statements: split on `; ` or newlines (or a list), keeping those with ≥ 2 content tokens. */
export function evidenceStatements(evidence: string | readonly string[] | undefined | null): string[] {
  if (evidence == null) return [];
  const parts = typeof evidence === 'string' ? evidence.split(/; |\n/) : evidence.flatMap((e) => String(e).split(/; |\n/));
  return parts.map((s) => s.trim()).filter((s) => metricTokenSet(s).size >= 2);
}
