import { FIXED_POLICY_NAMES } from '@mosaic/policy-schema';
import type { CorpusIndex } from '@mosaic/spec';
import { oneOf, parseCommandArgs, positiveInteger, requireString } from '../args.js';
import { chooseEncoder, chooseGraph, chooseRerankerName, ENCODER_HELP, RERANKER_HELP } from '../choose-components.js';
import { CliError } from '../cli-error.js';
import { formatRetrieval, pathNames } from '../format-retrieval.js';
import { locateIndexes } from '../index-locator.js';
import { MAX_QUESTION_CHARS, readQuestionInput } from '../question-input.js';
import { chooseAnalyzer, chooseGenerator, openIndex, openPipeline } from '../open-pipeline.js';
import { createStoreConnections, databaseName, openStoreIndex, STORE_FLAGS, storeHelp, storeTarget } from '../store-options.js';

export const ASK_HELP = `mosaic ask --index DIR "question" [options]
       mosaic ask --store URL --corpus NAME "question" [options]
       mosaic ask --index DIR --question-file FILE [options]
       echo "question" | mosaic ask --index DIR - [options]

Runs the whole method on one question and prints the answer in plain words: the sentences quoted,
each with its source (file, section where the format has one, lines or characters), how sure, what
was searched and the passages found. When no passage of the corpus answers the question it says so
(and the JSON has answer.abstained: true and answer.reason). --verbose adds the method's account:
the policy (and what validation changed), the seeds, the selected paths, the stop reason, timings.

  --index DIR           an index directory (or a folder of them with --corpus)
  --question-file FILE  read the question from FILE (- for stdin) instead of the arguments;
                        questions are at most ${MAX_QUESTION_CHARS} characters
  --corpus NAME         which corpus index to use when DIR holds several (with --store: the
                        corpus whose database to read)
  --policy NAME         adaptive (default) | narrow | medium | wide
  --analyzer NAME       offline (default) | openai
  --generator NAME      extractive (default) | openai
  --windows N           windows handed to the generator (default 15)
  --reranker NAME       ${RERANKER_HELP}
  --graph on|off        on (default) | off: the no-graph ablation (same pipeline and reranker, no graph evidence)
  --encoder NAME        ${ENCODER_HELP}
${storeHelp('the --corpus name, with characters other than letters, digits and _ replaced by _')}  --surreal URL         old name of --store
  --verbose             also print the policy controls, seeds, paths (as names), traversal and timings
  --json                print the full result (trace included) as JSON
`;

export async function askCommand(argv: string[]): Promise<void> {
  const { values, positionals } = parseCommandArgs('ask', argv, {
    index: { type: 'string' },
    'question-file': { type: 'string' },
    corpus: { type: 'string' },
    policy: { type: 'string' },
    analyzer: { type: 'string' },
    generator: { type: 'string' },
    windows: { type: 'string' },
    reranker: { type: 'string' },
    graph: { type: 'string' },
    encoder: { type: 'string' },
    json: { type: 'boolean' },
    verbose: { type: 'boolean' },
    surreal: { type: 'string' },
    ...STORE_FLAGS,
  });
  if (values.help) return void process.stdout.write(ASK_HELP);
  // Read and checked before the encoder (native code) loads.
  const question = await readQuestionInput({ positionals, questionFile: values['question-file'] as string | undefined });
  const policy = oneOf('policy', values.policy, ['adaptive', ...FIXED_POLICY_NAMES] as const, 'adaptive');
  const windows = positiveInteger('windows', values.windows, 15);
  const analyzerName = oneOf('analyzer', values.analyzer, ['offline', 'openai'] as const, 'offline');
  const generatorName = oneOf('generator', values.generator, ['extractive', 'openai'] as const, 'extractive');
  const reranker = chooseRerankerName(values.reranker);
  const graph = chooseGraph(values.graph);
  let index: CorpusIndex;
  const connections = createStoreConnections();
  if (typeof values.store === 'string' || typeof values.surreal === 'string') {
    const corpus = values.corpus as string | undefined;
    const target = storeTarget(values, corpus === undefined ? undefined : databaseName(corpus));
    index = await openStoreIndex(connections, target, await chooseEncoder(values.encoder as string | undefined));
  } else {
    // The index is found before the (slow, native) encoder loads, so usage errors come at once.
    const indexes = locateIndexes(requireString('ask', values, 'index'));
    const corpus = values.corpus as string | undefined;
    const located = corpus ? indexes.get(corpus) : indexes.size === 1 ? [...indexes.values()][0] : undefined;
    if (!located) {
      throw new CliError(`${corpus ? `no index for corpus '${corpus}'` : 'several indexes found'}; pass --corpus one of: ${[...indexes.keys()].join(', ')}`);
    }
    index = await openIndex(located, await chooseEncoder(values.encoder as string | undefined));
  }
  const mosaic = openPipeline({
    index,
    analyzer: chooseAnalyzer(analyzerName),
    generator: chooseGenerator(generatorName),
    windows,
    reranker,
    graph,
  });
  const result = await mosaic.ask({ question, policy: policy === 'adaptive' ? undefined : policy });
  const names = values.verbose && !values.json ? await pathNames(index, result) : undefined;
  await connections.close();
  process.stdout.write(values.json ? `${JSON.stringify(result, null, 2)}\n` : `${formatRetrieval(result, { verbose: values.verbose === true, names })}\n`);
}
