/** Progress of a long operation: `done` of `total` units of `stage` (e.g. 'extract', 'encode-windows'). */
export interface ProgressEvent {
  stage: string;
  done: number;
  total: number;
}
