import type { MosaicHooks, Retrieval } from '@mosaic/pipeline';
import type { CorpusIndex, EvidenceSelector, EvidenceUnit, ScoredPath, Traversal } from '@mosaic/spec';

/** What a retrieval's stages produced that the beam's evidence is built from. */
interface BeamCapture {
  queryVector?: Float32Array;
  paths?: readonly ScoredPath[];
}

/**
 * Records, per question (by its id, else its text), the query vector and the traversal's paths as the pipeline produces them
 * (through `MosaicHooks`, after each stage's timing is taken, so the retrieval's timings are unchanged).
 */
export function createBeamRecorder(): { hooks: MosaicHooks; take(questionId: string): BeamCapture } {
  const captures = new Map<string, BeamCapture>();
  const captureOf = (id: string) => {
    let capture = captures.get(id);
    if (!capture) {
      capture = {};
      captures.set(id, capture);
    }
    return capture;
  };
  return {
    hooks: {
      onStageEnd({ stage, question, result }) {
        const key = question.id ?? question.text;
        if (stage === 'encode') captureOf(key).queryVector = result as Float32Array;
        else if (stage === 'traverse') captureOf(key).paths = (result as Traversal).paths;
      },
    },
    take(questionId) {
      const capture = captures.get(questionId) ?? {};
      captures.delete(questionId);
      return capture;
    },
  };
}

/**
 * The evidence that every path the traversal scored would yield: the pipeline's own evidence selector,
 * run again over all of the traversal's paths (`Traversal.paths`: every distinct path scored) with an evidence budget that no set of paths can exhaust (one unit per
 * node and edge of every path) and no floor. Its units ground by the selector's own rules (the same
 * sentences per unit), so the windows they reach hold those of the retained evidence; comparing the
 * two says whether evidence was lost in traversal or in selection. Empty when the traversal found
 * no paths (or did not run: `--graph off`).
 */
export async function beamEvidence(options: {
  selector: EvidenceSelector;
  index: CorpusIndex;
  retrieval: Retrieval;
  capture: BeamCapture;
}): Promise<EvidenceUnit[]> {
  const { selector, index, retrieval, capture } = options;
  const paths = capture.paths ?? [];
  if (paths.length === 0 || !capture.queryVector) return [];
  const budget = paths.reduce((sum, path) => sum + path.nodes.length + path.edges.length, 0);
  const selection = await selector.selectEvidence({
    context: { question: retrieval.question, queryVector: capture.queryVector, policy: { ...retrieval.policy, evidenceCount: budget, minEvidence: 0 } },
    index: index.forRetrieval?.() ?? index,
    paths,
    seeds: retrieval.seeds,
  });
  return selection.units;
}
