import { readFileSync } from 'node:fs';
import { MosaicError } from '@mosaic/spec';
import { CliError, CliFailure } from './cli-error.js';
import { ASK_HELP, askCommand } from './commands/ask-command.js';
import { BENCH_HELP, benchCommand } from './commands/bench-command.js';
import { DEMO_HELP, demoCommand } from './commands/demo-command.js';
import { EXPLORE_HELP, exploreCommand } from './commands/explore-command.js';
import { MIGRATE_HELP, migrateCommand } from './commands/migrate-command.js';
import { POLICIES_HELP, policiesCommand } from './commands/policies-command.js';
import { INDEX_HELP, indexCommand } from './commands/index-command.js';
import { RETRIEVE_HELP, retrieveCommand } from './commands/retrieve-command.js';
import { SERVE_HELP, serveCommand } from './commands/serve-command.js';
import { MCP_HELP, mcpCommand } from './commands/mcp-command.js';

const COMMANDS: Record<string, { run(argv: string[]): Promise<void>; help: string }> = {
  index: { run: indexCommand, help: INDEX_HELP },
  ask: { run: askCommand, help: ASK_HELP },
  retrieve: { run: retrieveCommand, help: RETRIEVE_HELP },
  bench: { run: benchCommand, help: BENCH_HELP },
  demo: { run: demoCommand, help: DEMO_HELP },
  explore: { run: exploreCommand, help: EXPLORE_HELP },
  policies: { run: policiesCommand, help: POLICIES_HELP },
  migrate: { run: migrateCommand, help: MIGRATE_HELP },
  serve: { run: serveCommand, help: SERVE_HELP },
  mcp: { run: mcpCommand, help: MCP_HELP },
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
  serve      serve a loaded index over HTTP: retrieve, ask (with server-sent events), policy, metrics, OpenAPI
  mcp        an MCP server (stdio or Streamable HTTP) with search and ask tools and the documents as resources

  --version  print the version
`;

/**
 * The longest command line (all arguments together, in characters) the CLI accepts. The ONNX
 * runtime behind the embedded encoder crashes the process (SIGSEGV, no message) when the command
 * line is about 30,000 characters or more, so longer ones are refused before any native code
 * loads; long text goes in through a file (`ask --question-file FILE`, or `-` for stdin).
 */
export const MAX_COMMAND_LINE_CHARS = 16_000;

/** The CLI's version (apps/demo/package.json; the same path from src/ and from dist/). */
export function cliVersion(): string {
  try {
    return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

/** Runs the CLI; returns the exit code (0 ok, 1 runtime error, 2 usage error, 130 / 143 stopped by SIGINT / SIGTERM). */
export async function main(argv: string[]): Promise<number> {
  const length = argv.reduce((sum, arg) => sum + arg.length + 1, 0);
  if (length > MAX_COMMAND_LINE_CHARS) {
    process.stderr.write(
      `mosaic: the command line is ${length} characters long, more than ${MAX_COMMAND_LINE_CHARS}; ` +
        `pass long text through a file instead (mosaic ask --question-file FILE, or - to read the question from stdin)\n`,
    );
    return 2;
  }
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(USAGE);
    return name ? 0 : 2;
  }
  if (name === '--version' || name === '-V' || name === 'version') {
    process.stdout.write(`mosaic ${cliVersion()}\n`);
    return 0;
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
    // One line each, without the error class: the name of the command and what is wrong.
    if (CliError.isInstance(error)) {
      process.stderr.write(`mosaic ${name}: ${error.message}\n`);
      return 2;
    }
    if (CliFailure.isInstance(error)) {
      process.stderr.write(`mosaic ${name}: ${error.message}\n`);
      return error.exitCode;
    }
    if (MosaicError.isInstance(error)) {
      process.stderr.write(`mosaic ${name}: ${error.message}\n`);
      return 1;
    }
    process.stderr.write(`mosaic ${name}: ${(error as Error)?.stack ?? String(error)}\n`);
    return 1;
  }
}
