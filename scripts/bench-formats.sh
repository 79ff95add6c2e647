#!/usr/bin/env bash
# Issue 30 bench: reads real documentation from Debian packages by path (never copied into the
# repository) and prints, per format, files read/skipped, read time per MB and the share of windows
# that still hold markup; then times `mosaic index` on a formatted corpus against the same clean text
# as .txt files. Results: docs/results/issue-30.md.
#
#   scripts/bench-formats.sh [--no-install] [--no-build]
#
# Packages (apt): postgresql-doc-15 (HTML), python3.11-doc (reST sources under
# /usr/share/doc/python3.11/html/_sources), libtasn1-doc (a PDF manual: libtasn1.pdf; with
# shared-mime-info's shared-mime-info-spec.pdf), the README.md files Debian packages ship under
# /usr/share/doc (git, polkitd, …), and nodejs-doc's Node.js API reference in Markdown
# (/usr/share/doc/nodejs/api/*.md, gzipped by Debian: decompressed into the work folder, not committed),
# and perl-doc's POD (/usr/share/perl/5.*/pod/*.pod).
set -euo pipefail
cd "$(dirname "$0")/.."
install=1
build=1
for arg in "$@"; do
  case "$arg" in
    --no-install) install=0 ;;
    --no-build) build=0 ;;
    *) echo "unknown argument $arg" >&2; exit 2 ;;
  esac
done
if [ "$install" = 1 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-remove postgresql-doc-15 python3.11-doc libtasn1-doc shared-mime-info git perl-doc >/dev/null
  # nodejs-doc conflicts with NodeSource's nodejs package: installing it REMOVES the machine's Node.js.
  # Install it only where that cannot happen (--no-remove makes apt refuse instead); else skip it.
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-remove nodejs-doc >/dev/null 2>&1 ||
    echo "nodejs-doc not installed (it would remove the installed nodejs package): the Node.js API corpus is skipped" >&2
fi
work="${BENCH_FORMATS_DIR:-/tmp/mosaic-bench-formats}"
mkdir -p "$work"
rm -rf "$work/nodejs-api" && mkdir -p "$work/nodejs-api"
for f in /usr/share/doc/nodejs/api/*.md /usr/share/doc/nodejs/api/*.md.gz; do
  [ -e "$f" ] || continue
  case "$f" in *.gz) zcat "$f" >"$work/nodejs-api/$(basename "$f" .gz)" ;; *) cp "$f" "$work/nodejs-api/" ;; esac
done
echo "== formats: markup share and read time (windows 1,600 / 800 as indexed)"
(cd packages/indexing && npx tsx bench/formats-bench.ts \
  html=/usr/share/doc/postgresql-doc-15/html \
  rst=/usr/share/doc/python3.11/html/_sources \
  markdown=/usr/share/doc,include=README.md \
  $( [ -n "$(ls -A "$work/nodejs-api")" ] && echo "markdown-nodejs-api=$work/nodejs-api" ) \
  pdf=/usr/share/doc,include=*.pdf \
  $(for d in /usr/share/perl/5.*/pod; do [ -d "$d" ] && echo "pod=$d" && break; done) \
  --json "$work/formats.json")

if [ "$build" = 1 ]; then
  echo "== build time: mosaic index on the PostgreSQL SQL command reference (sql-*.html) vs the same clean text as .txt"
  (cd packages/indexing && npx tsx bench/formats-bench.ts sqlref=/usr/share/doc/postgresql-doc-15/html,include=sql-*.html --plain "$work/plain" >/dev/null)
  du -sb --apparent-size /usr/share/doc/postgresql-doc-15/html/sql-*.html | awk '{s+=$1} END {printf "html source: %.2f MB\n", s/1048576}'
  du -sb --apparent-size "$work/plain/sqlref" | awk '{printf "plain text:  %.2f MB\n", $1/1048576}'
  rm -rf "$work/idx-html" "$work/idx-plain"
  /usr/bin/time -f "html build: %e s, max RSS %M KB" node apps/demo/dist/cli.js index --corpus /usr/share/doc/postgresql-doc-15/html --include 'sql-*.html' --corpus-name sqlref --out "$work/idx-html" 2>&1 | grep -Ev '[0-9]+% '
  /usr/bin/time -f "plain build: %e s, max RSS %M KB" node apps/demo/dist/cli.js index --corpus "$work/plain/sqlref" --corpus-name sqlref --out "$work/idx-plain" 2>&1 | grep -Ev '[0-9]+% '
fi
