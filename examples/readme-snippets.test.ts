import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// README snippets that show an example are the example: a fenced block right after
// `<!-- example: <path from the repository root>[#region] -->` must equal that file (or the lines
// between its `// --- the <region>` and `// --- end of the <region> ---` comments). The examples
// themselves run and are type-checked by install-from-tarballs.test.ts.
const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const readmes = [
  'README.md',
  'examples/README.md',
  ...readdirSync(join(root, 'packages'))
    .map((name) => `packages/${name}/README.md`)
    .filter((path) => existsSync(join(root, path))),
];

function snippets(readme: string): Array<{ source: string; region?: string; code: string }> {
  const text = readFileSync(join(root, readme), 'utf8');
  const found = [];
  for (const match of text.matchAll(/<!-- example: ([^\s#]+)(?:#([\w-]+))? -->\s*\n```\w*\n([\s\S]*?)\n```/g)) {
    found.push({ source: match[1], region: match[2], code: match[3] });
  }
  return found;
}

function expected(source: string, region?: string): string {
  const text = readFileSync(join(root, source), 'utf8');
  if (!region) return text.trimEnd();
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.includes(`// --- the ${region}`));
  const end = lines.findIndex((line) => line.includes(`// --- end of the ${region} ---`));
  if (start < 0 || end < start) throw new Error(`${source} has no region '${region}'`);
  return lines.slice(start + 1, end).join('\n');
}

describe('README snippets are the examples', () => {
  const all = readmes.flatMap((readme) => snippets(readme).map((snippet) => ({ readme, ...snippet })));
  it('finds the marked snippets (pipeline, traversal, window-reranker, analyzer READMEs)', () => {
    expect(all.map((snippet) => snippet.readme)).toEqual(
      expect.arrayContaining([
        'packages/pipeline/README.md',
        'packages/traversal/README.md',
        'packages/window-reranker/README.md',
        'packages/analyzer/README.md',
      ]),
    );
  });
  it.each(all.map((snippet) => [`${snippet.readme} ← ${snippet.source}${snippet.region ? `#${snippet.region}` : ''}`, snippet] as const))(
    '%s',
    (_, snippet) => {
      expect(snippet.code).toBe(expected(snippet.source, snippet.region));
    },
  );
});
