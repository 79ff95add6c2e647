import { readFile } from 'node:fs/promises';
import { CliError } from './cli-error.js';

/**
 * The longest question the CLI accepts, in characters (after trimming). Real questions are a few
 * hundred characters (GraphRAG-Bench's longest is under 500); the limit is far above that and
 * keeps a question well inside what the ONNX runtime survives on a command line (see
 * MAX_COMMAND_LINE_CHARS). It applies to every way in: argument, --question-file, stdin, and
 * each item of a questions file. Checked before the encoder (native code) loads.
 */
export const MAX_QUESTION_CHARS = 8_000;

/** What is wrong with a question's text, or undefined when it is usable. */
export function questionProblem(text: string): string | undefined {
  if (text.trim().length === 0) return 'the question is empty';
  const length = text.trim().length;
  if (length > MAX_QUESTION_CHARS) return `the question is ${length} characters long, more than the limit of ${MAX_QUESTION_CHARS}`;
  return undefined;
}

export interface QuestionInputOptions {
  /** The command's positional arguments (joined with spaces; `-` alone means stdin). */
  positionals: readonly string[];
  /** `--question-file PATH` (`-` means stdin). */
  questionFile?: string;
  /** Reads all of stdin (default: process.stdin). */
  readStdin?: () => Promise<string>;
}

/** Reads a whole stream as UTF-8 text. */
export async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The question of `mosaic ask`: from the arguments, from `--question-file PATH`, or from stdin
 * (`-` as the only argument, or `--question-file -`). Trimmed; empty or longer than
 * MAX_QUESTION_CHARS → CliError.
 */
export async function readQuestionInput(options: QuestionInputOptions): Promise<string> {
  const { positionals, questionFile } = options;
  const readStdin = options.readStdin ?? (() => readAll(process.stdin));
  const fromStdin = questionFile === '-' || (questionFile === undefined && positionals.length === 1 && positionals[0] === '-');
  if (questionFile !== undefined && positionals.length > 0) {
    throw new CliError(`give the question either as an argument or with --question-file, not both`);
  }
  let text: string;
  let source: string;
  if (fromStdin) {
    text = await readStdin();
    source = 'stdin';
  } else if (questionFile !== undefined) {
    try {
      text = await readFile(questionFile, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new CliError(
        `--question-file ${questionFile}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : (error as Error).message}`,
      );
    }
    source = `--question-file ${questionFile}`;
  } else {
    text = positionals.join(' ');
    source = 'the argument';
  }
  const problem = questionProblem(text);
  if (problem) {
    if (source === 'the argument' && text.trim().length === 0) {
      throw new CliError('a question is required, e.g. mosaic ask --index DIR "What causes X?" (or --question-file FILE, or - for stdin)');
    }
    throw new CliError(`${source}: ${problem}`);
  }
  return text.trim();
}
