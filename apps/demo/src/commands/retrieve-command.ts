import { createWriteStream, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { dirname } from 'node:path';
import type { GoldQuestion } from '@mosaic/evaluation';
import { FIXED_POLICY_NAMES } from '@mosaic/policy-schema';
import type { Mosaic } from '@mosaic/pipeline';
import { IndexMismatchError, type CorpusIndex } from '@mosaic/spec';
import { oneOf, parseCommandArgs, positiveInteger, requireString } from '../args.js';
import { chooseEncoder, chooseGraph, chooseRerankerName, ENCODER_HELP, RERANKER_HELP } from '../choose-components.js';
import { CliError, CliFailure } from '../cli-error.js';
import { locateIndexes, type LocatedIndex } from '../index-locator.js';
import { chooseAnalyzer, openIndex, openPipeline } from '../open-pipeline.js';
import { createStoreConnections, databaseName, openStoreIndex, STORE_FLAGS, storeHelp, storeKey, storeTarget } from '../store-options.js';
import { describeRejected, readQuestionFile, type RejectedQuestion } from '../questions.js';
import { retrievalLine } from '../retrieval-line.js';

export const RETRIEVE_HELP = `mosaic retrieve --index DIR --questions FILE --out FILE [options]
       mosaic retrieve --store URL --questions FILE --out FILE [options]

Retrieves windows for every question of a GraphRAG-Bench question file; a question's
'source' picks the corpus index in DIR (with --store: the database named after the source,
unless --database names one for all). Writes one JSON line per question:
{"id", "contexts", "policy", "latency_ms", "paths_evaluated", "depth_reached", "evidence_units"}
(latency_ms covers retrieval only, no LLM call). A bad item (not an object, no id, an empty or
over-long question, a source without an index, a failed retrieval) is reported on stderr with its
position and id and skipped; every other question's line is written, and the exit code is 1.

  --index DIR           a folder of corpus indexes (as written by mosaic index) or one index
  --questions FILE      GraphRAG-Bench questions JSON (required)
  --out FILE            output JSON-lines file (required; - writes the lines to stdout, e.g. into jq)
  --policy NAME         adaptive (default) | narrow | medium | wide
  --analyzer NAME       offline (default) | openai
  --reranker NAME       ${RERANKER_HELP}
  --graph on|off        on (default) | off: the no-graph ablation: the same pipeline and reranker, but no
                        seed selection, traversal or evidence selection (the reranker gets an empty
                        evidence list); same line format, paths_evaluated/depth_reached/evidence_units 0
  --windows N           contexts per question (default 15)
  --limit N             only the first N questions
  --encoder NAME        ${ENCODER_HELP}
  --policy-log FILE     append every analysis (policy, validation changes, analyzer, latency) as a JSON line
  --warmup on|off       on (default): once an index is open, get it ready before its first question
                        (scoring memory made, one question from the corpus retrieved, not written), so
                        that the first questions' latency_ms is not the cost of a cold process
  --timings             add "stage_ms" to each line: the milliseconds of each stage (analyze, encode,
                        seeds, traverse, evidence, rerank, ground) with retrieval and total, to see
                        where a question's latency_ms goes
${storeHelp("the question's source, with characters other than letters, digits and _ replaced by _")}`;

export async function retrieveCommand(argv: string[]): Promise<void> {
  const { values } = parseCommandArgs('retrieve', argv, {
    index: { type: 'string' },
    questions: { type: 'string' },
    out: { type: 'string' },
    policy: { type: 'string' },
    analyzer: { type: 'string' },
    windows: { type: 'string' },
    limit: { type: 'string' },
    encoder: { type: 'string' },
    'policy-log': { type: 'string' },
    reranker: { type: 'string' },
    graph: { type: 'string' },
    warmup: { type: 'string' },
    timings: { type: 'boolean' },
    ...STORE_FLAGS,
  });
  if (values.help) return void process.stdout.write(RETRIEVE_HELP);
  const reranker = chooseRerankerName(values.reranker);
  const graph = chooseGraph(values.graph);
  const store = typeof values.store === 'string';
  if (store && values.index !== undefined) throw new CliError('give one of --index DIR and --store URL (see mosaic retrieve --help)');
  // With --store, the indexes are found per question (database = the source's name, or --database for all).
  const indexes = store ? new Map<string, LocatedIndex>() : locateIndexes(requireString('retrieve', values, 'index'));
  const questionsPath = requireString('retrieve', values, 'questions');
  const file = readQuestionFile({ path: questionsPath, limit: values.limit ? positiveInteger('limit', values.limit, 1) : undefined });
  const out = requireString('retrieve', values, 'out');
  const policy = oneOf('policy', values.policy, ['adaptive', ...FIXED_POLICY_NAMES] as const, 'adaptive');
  const windows = positiveInteger('windows', values.windows, 15);
  const warmUp = oneOf('warmup', values.warmup, ['on', 'off'] as const, 'on') === 'on';
  const analyzer = chooseAnalyzer(oneOf('analyzer', values.analyzer, ['offline', 'openai'] as const, 'offline'), {
    policyLog: values['policy-log'] as string | undefined,
  });
  const single = store ? undefined : indexes.size === 1 ? [...indexes.values()][0] : undefined;
  const singleDatabase = store && typeof values.database === 'string';
  // Bad items are reported (file position and id) and skipped; every good question gets its line.
  const failed: RejectedQuestion[] = [...file.rejected];
  const questions: { question: GoldQuestion; index: number }[] = [];
  file.questions.forEach((question, i) => {
    const index = file.positions[i]!;
    if (single || indexes.has(question.source ?? '') || (store && (singleDatabase || question.source))) questions.push({ question, index });
    else
      failed.push({
        index,
        id: question.id,
        problem: `its source '${question.source ?? ''}' has no index in ${values.index} (have: ${[...indexes.keys()].join(', ')})`,
      });
  });
  if (questions.length === 0 && file.questions.length > 0) {
    throw new CliError(
      `no question of ${questionsPath} has a source with an index in ${values.index} (have: ${[...indexes.keys()].join(', ')}); is --index right?`,
    );
  }
  const report = (item: RejectedQuestion) => process.stderr.write(`retrieve: skipped ${describeRejected(item)}\n`);
  failed.sort((a, b) => a.index - b.index).forEach(report);
  const skippedUpFront = failed.length;
  const encoder = await chooseEncoder(values.encoder as string | undefined);
  const pipelines = new Map<string, Mosaic>();
  const toStdout = out === '-';
  if (!toStdout && !existsSync(dirname(out))) mkdirSync(dirname(out), { recursive: true });
  // Written beside --out and renamed over it at the end: a run that stops half-way leaves the old file.
  const partial = `${out}.tmp-${process.pid}`;
  const stream = toStdout ? process.stdout : createWriteStream(partial);
  const total = file.questions.length + file.rejected.length;
  const connections = createStoreConnections();
  const missing = new Set<string>();
  let done = 0;
  try {
    for (const { question: q, index } of questions) {
      const located = store ? undefined : (single ?? indexes.get(q.source!)!);
      const target = store ? storeTarget(values, databaseName(q.source ?? '')) : undefined;
      const key = located?.dir ?? storeKey(target!);
      const skipMissing = () => {
        const item = { index, id: q.id, problem: `its source '${q.source ?? ''}' has no index in ${key}` };
        failed.push(item);
        report(item);
      };
      let mosaic = pipelines.get(key);
      if (!mosaic && missing.has(key)) {
        skipMissing();
        continue;
      }
      if (!mosaic) {
        let opened: CorpusIndex;
        try {
          opened = located ? await openIndex(located, encoder) : await openStoreIndex(connections, target!, encoder);
        } catch (error) {
          // A source without a database in the store: its questions are skipped, as a source without an index directory.
          if (!target || !IndexMismatchError.isInstance(error) || error.field !== 'manifest') throw error;
          missing.add(key);
          skipMissing();
          continue;
        }
        mosaic = openPipeline({ index: opened, analyzer, windows, reranker, graph });
        pipelines.set(key, mosaic);
        if (warmUp) {
          // Paid here, once per index, rather than by the first questions' latency_ms (see Mosaic.warmUp).
          const warmed = await mosaic.warmUp();
          process.stderr.write(`retrieve: ${key} warmed up in ${(warmed.durationMs / 1000).toFixed(1)} s\n`);
        }
      }
      try {
        const retrieval = await mosaic.retrieve({ question: { id: q.id, text: q.question }, policy: policy === 'adaptive' ? undefined : policy });
        // Backpressure: a pipe (or a slow disk) takes the next line only once it has drained.
        if (!stream.write(`${JSON.stringify(retrievalLine(q.id, retrieval, { stages: values.timings === true }))}\n`)) await once(stream, 'drain');
        done += 1;
      } catch (error) {
        const item = { index, id: q.id, problem: (error as Error)?.message ?? String(error) };
        failed.push(item);
        report(item);
      }
      const seen = done + failed.length - skippedUpFront;
      if (seen % 50 === 0 || seen === questions.length) process.stderr.write(`retrieve: ${seen}/${questions.length}\n`);
    }
    if (!toStdout) {
      await new Promise<void>((resolve, reject) => stream.end((error?: Error | null) => (error ? reject(error) : resolve())));
      renameSync(partial, out);
    }
  } catch (error) {
    if (!toStdout) {
      stream.destroy();
      rmSync(partial, { force: true });
    }
    throw error;
  } finally {
    await connections.close();
  }
  // With --out -, stdout carries the lines only.
  (toStdout ? process.stderr : process.stdout).write(`wrote ${done} lines to ${toStdout ? 'stdout' : out}\n`);
  if (failed.length > 0) {
    failed.sort((a, b) => a.index - b.index);
    throw new CliFailure({
      message: `${failed.length} of ${total} questions failed (items ${failed.map((f) => f.index).join(', ')}; reported above); the other ${done} lines were written to ${toStdout ? 'stdout' : out}`,
      exitCode: 1,
    });
  }
}
