import { loadIndex, readIndexContents, readIndexManifest } from '@mosaic/indexing';
import { connectSurreal, piecesFromCorpusIndex, writeIndexToSurreal, type SurrealIndexPieces } from '@mosaic/store-surrealdb';
import { parseCommandArgs, requireString } from '../args.js';
import { chooseEncoder, ENCODER_HELP } from '../choose-components.js';
import { CliError } from '../cli-error.js';
import { locateIndexes } from '../index-locator.js';

export const MIGRATE_HELP = `mosaic migrate --index DIR --store URL [options]

Copies a file index (graph, chunks, windows, extractions, stored vectors with their text hashes,
BM25 state, manifest) into SurrealDB, where many retrieval workers can share it, and where
mosaic index --add --store extends it. Vectors are copied, not re-encoded; the manifest record is
written last, so an interrupted copy is refused on load.

  --index DIR           one index directory (or a folder of them with --corpus)
  --corpus NAME         which corpus when DIR holds several
  --store URL           mem:// | surrealkv://PATH | rocksdb://PATH | ws(s)://HOST:PORT | http(s)://HOST:PORT
                        (--surreal URL is its old name)
  --namespace NAME      default mosaic
  --database NAME       default: the corpus directory name with - replaced by _
  --user NAME / --pass SECRET   root credentials for a remote server
  --encoder NAME        ${ENCODER_HELP}
`;

export async function migrateCommand(argv: string[]): Promise<void> {
  const { values } = parseCommandArgs('migrate', argv, {
    index: { type: 'string' },
    corpus: { type: 'string' },
    store: { type: 'string' },
    surreal: { type: 'string' },
    namespace: { type: 'string' },
    database: { type: 'string' },
    user: { type: 'string' },
    pass: { type: 'string' },
    encoder: { type: 'string' },
  });
  if (values.help) return void process.stdout.write(MIGRATE_HELP);
  // --store, as in every other command; --surreal is its old name.
  const url = typeof values.surreal === 'string' && values.store === undefined ? values.surreal : requireString('migrate', values, 'store');
  const indexes = locateIndexes(requireString('migrate', values, 'index'));
  const corpus = values.corpus as string | undefined;
  const located = corpus ? indexes.get(corpus) : indexes.size === 1 ? [...indexes.values()][0] : undefined;
  if (!located) throw new CliError(`pass --corpus one of: ${[...indexes.keys()].join(', ')}`);
  const encoder = await chooseEncoder(values.encoder as string | undefined);
  const started = performance.now();
  const index = await loadIndex({ dir: located.dir, encoder });
  const contents = await readIndexContents(located.dir, await readIndexManifest(located.dir));
  const { vectors } = contents;
  const read = await piecesFromCorpusIndex({
    index,
    vectors: { entities: vectors.entities.vectors, relations: vectors.relations.vectors, windows: vectors.windows.vectors },
  });
  // With every chunk in corpus order, the per-chunk extractions and the text hashes: the copy can be extended (mosaic index --add --store).
  const pieces: SurrealIndexPieces = {
    ...read.pieces,
    chunks: contents.chunks,
    extractions: contents.extractions,
    vectors: {
      entities: { ...read.pieces.vectors.entities, textHashes: vectors.entities.textHashes },
      relations: { ...read.pieces.vectors.relations, textHashes: vectors.relations.textHashes },
      windows: { ...read.pieces.vectors.windows, textHashes: vectors.windows.textHashes },
    },
  };
  const authentication = values.user ? { username: String(values.user), password: String(values.pass ?? '') } : undefined;
  const connection = await connectSurreal({
    url,
    namespace: (values.namespace as string | undefined) ?? 'mosaic',
    database:
      (values.database as string | undefined) ??
      located.dir
        .split('/')
        .pop()!
        .replace(/[^A-Za-z0-9_]/g, '_'),
    ...(authentication ? { authentication } : {}),
  });
  try {
    await writeIndexToSurreal({ connection, pieces, batchSize: 1000 });
  } finally {
    await connection.close();
  }
  const c = located.manifest.counts;
  process.stdout.write(
    `migrated ${located.manifest.corpus} (${c.entities} entities, ${c.relations} relations, ${c.windows} windows) to ${url} in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
  );
}
