import { MosaicError } from '@mosaic/spec';
import { CliError } from './cli-error.js';
import { ASK_HELP, askCommand } from './commands/ask-command.js';
import { BENCH_HELP, benchCommand } from './commands/bench-command.js';
import { DEMO_HELP, demoCommand } from './commands/demo-command.js';
import { EXPLORE_HELP, exploreCommand } from './commands/explore-command.js';
import { MIGRATE_HELP, migrateCommand } from './commands/migrate-command.js';
import { POLICIES_HELP, policiesCommand } from './commands/policies-command.js';
import { INDEX_HELP, indexCommand } from './commands/index-command.js';
import { RETRIEVE_HELP, retrieveCommand } from './commands/retrieve-command.js';

const COMMANDS: Record<string, { run(argv: string[]): Promise<void>; help: string }> = {
  index: { run: indexCommand, help: INDEX_HELP },
  ask: { run: askCommand, help: ASK_HELP },
  retrieve: { run: retrieveCommand, help: RETRIEVE_HELP },
  bench: { run: benchCommand, help: BENCH_HELP },
  demo: { run: demoCommand, help: DEMO_HELP },
  explore: { run: exploreCommand, help: EXPLORE_HELP },
  policies: { run: policiesCommand, help: POLICIES_HELP },
  migrate: { run: migrateCommand, help: MIGRATE_HELP },
};

export const USAGE = `mosaic <command> [options]   (mosaic <command> --help for its options)

  index      build corpus indexes (graph, entity/relation/window vectors, manifest)
  ask        answer one question and show how the policy shaped retrieval
  retrieve   retrieve windows for a GraphRAG-Bench question file (JSON lines out)
  bench      compare BM25, dense, fixed and adaptive policies on the same indexes
  demo       index a corpus and answer sample questions, offline
  policies   the policy distribution (report §7.4) of a question file or a policy log
  migrate    copy a file index into SurrealDB (embedded or remote) for shared retrieval workers
  explore    serve a web page showing how a question changed the retrieval (prints its URL)
`;

/** Runs the CLI; returns the exit code (0 ok, 1 runtime error, 2 usage error). */
export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(USAGE);
    return name ? 0 : 2;
  }
  const command = COMMANDS[name];
  if (!command) {
    process.stderr.write(`mosaic: unknown command '${name}'\n${USAGE}`);
    return 2;
  }
  try {
    await command.run(rest);
    return 0;
  } catch (error) {
    if (CliError.isInstance(error)) {
      process.stderr.write(`mosaic ${name}: ${error.message}\n`);
      return 2;
    }
    if (MosaicError.isInstance(error)) {
      process.stderr.write(`mosaic ${name}: ${error.name}: ${error.message}\n`);
      return 1;
    }
    process.stderr.write(`mosaic ${name}: ${(error as Error)?.stack ?? String(error)}\n`);
    return 1;
  }
}

