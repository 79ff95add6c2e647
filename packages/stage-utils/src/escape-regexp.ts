/** `text` with every character a regular expression reads as syntax escaped: matched as it is written. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
