#!/usr/bin/env node
// Prints the number of names each package's public entry (src/index.ts) exports, values and
// types, and with --names the names themselves. Used for docs/results/issue-33.md.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const root = new URL('..', import.meta.url).pathname;
const showNames = process.argv.includes('--names');
const entries = readdirSync(join(root, 'packages'))
  .sort()
  .map((name) => ({ name, file: join(root, 'packages', name, 'src', 'index.ts') }))
  .filter(({ file }) => existsSync(file));
const program = ts.createProgram(
  entries.map((e) => e.file),
  { module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, target: ts.ScriptTarget.ES2022, noEmit: true, skipLibCheck: true },
);
const checker = program.getTypeChecker();
let total = 0;
for (const { name, file } of entries) {
  const source = program.getSourceFile(file);
  const symbol = source && checker.getSymbolAtLocation(source);
  const names = symbol
    ? checker
        .getExportsOfModule(symbol)
        .map((s) => s.getName())
        .sort()
    : [];
  total += names.length;
  console.log(`${name}\t${names.length}${showNames ? `\t${names.join(' ')}` : ''}`);
}
console.log(`total\t${total}`);
