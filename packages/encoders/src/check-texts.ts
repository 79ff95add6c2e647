import { InvalidArgumentError } from '@mosaic/spec';

/** Rejects anything but an array of strings with InvalidArgumentError naming the bad element. */
export function checkTexts(texts: unknown): asserts texts is readonly string[] {
  if (!Array.isArray(texts)) throw new InvalidArgumentError({ argument: 'texts', message: 'must be an array of strings' });
  texts.forEach((text, index) => {
    if (typeof text !== 'string') {
      throw new InvalidArgumentError({ argument: `texts[${index}]`, message: `must be a string, got ${typeof text}` });
    }
  });
}
