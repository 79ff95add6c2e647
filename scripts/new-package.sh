#!/usr/bin/env bash
# Scaffold a workspace package: scripts/new-package.sh <folder> "<description>" [private]
set -euo pipefail
name="$1"; desc="$2"; private="${3:-}"
dir="packages/$name"
mkdir -p "$dir/src"
priv=""; [ -n "$private" ] && priv='"private": true,'
cat > "$dir/package.json" <<JSON
{
  "name": "@mosaic/$name",
  "version": "0.1.0",
  $priv
  "description": "$desc",
  "license": "MIT",
  "type": "module",
  "sideEffects": false,
  "exports": {
    ".": {
      "types": "./dist/index.d.ts",
      "import": "./dist/index.js"
    }
  },
  "main": "./dist/index.js",
  "types": "./dist/index.d.ts",
  "files": ["dist", "README.md", "CHANGELOG.md"],
  "scripts": {
    "build": "tsup",
    "type-check": "tsc --noEmit",
    "test": "vitest run --reporter=default --reporter=json --outputFile.json=test-results.json"
  },
  "dependencies": {},
  "devDependencies": {}
}
JSON
cat > "$dir/tsconfig.json" <<JSON
{
  "extends": "../../tsconfig.base.json",
  "include": ["src"]
}
JSON
cat > "$dir/tsup.config.ts" <<TS
import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
});
TS
[ -f "$dir/CHANGELOG.md" ] || printf '# @mosaic/%s\n' "$name" > "$dir/CHANGELOG.md"
[ -f "$dir/README.md" ] || printf '# @mosaic/%s\n\n%s\n' "$name" "$desc" > "$dir/README.md"
