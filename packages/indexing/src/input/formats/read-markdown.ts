import type { Nodes, Parents, RootContent } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import { CleanTextBuilder, type CleanDocument } from './clean-text-builder.js';
import { htmlFragmentText } from './read-html.js';

/** Block nodes whose children are blocks: walked, with a block break after each child. */
const CONTAINERS = new Set(['root', 'blockquote', 'list', 'listItem', 'footnoteDefinition']);

/**
 * Markdown (CommonMark + GFM: tables, strikethrough, autolinks, task lists, footnotes) to clean
 * text, parsed by micromark into mdast (mdast-util-from-markdown + mdast-util-gfm). Headings open
 * sections; paragraphs, list items, table rows and code blocks become blocks; emphasis, links and
 * inline code keep their text, images their alt text; raw HTML keeps its text. Every text node's
 * position gives its source line. Title: the first top-level heading.
 */
export function readMarkdown(source: string): CleanDocument {
  const tree = fromMarkdown(source, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
  const out = new CleanTextBuilder();
  block(tree, out, source);
  return out.build({ format: 'markdown' });
}

function lineOf(node: Nodes): number | undefined {
  return node.position?.start.line;
}

function block(node: Nodes, out: CleanTextBuilder, source: string): void {
  switch (node.type) {
    case 'heading':
      out.heading(node.depth, inlineText(node), lineOf(node));
      return;
    case 'paragraph':
      inline(node, out);
      out.endBlock();
      return;
    case 'code':
      out.text(node.value, codeLine(node, source));
      out.endBlock();
      return;
    case 'html':
      out.text(htmlFragmentText(node.value), lineOf(node), { collapse: true });
      out.endBlock();
      return;
    case 'table':
      for (const row of node.children) {
        for (const cell of row.children) {
          out.separator('\t');
          inline(cell, out);
        }
        out.endBlock();
      }
      return;
    case 'thematicBreak':
    case 'definition':
    case 'yaml' as string:
      return;
    default:
      if (CONTAINERS.has(node.type) && 'children' in node) {
        for (const child of (node as Parents).children) {
          block(child as Nodes, out, source);
          out.endBlock();
        }
        return;
      }
      inline(node, out);
      out.endBlock();
  }
}

/** The source line of a code block's first line of code: after the fence when fenced. */
function codeLine(node: Nodes, source: string): number | undefined {
  const start = node.position?.start;
  if (!start) return undefined;
  const fenced = /^[ \t]*(`{3,}|~{3,})/.test(source.slice(start.offset ?? 0, (start.offset ?? 0) + 8));
  return fenced ? start.line + 1 : start.line;
}

/** Append the inline content of `node` to the current block. */
function inline(node: Nodes, out: CleanTextBuilder): void {
  switch (node.type) {
    case 'text':
    case 'inlineCode':
      out.text(node.value, lineOf(node));
      return;
    case 'break':
      out.lineBreak();
      return;
    case 'image':
    case 'imageReference':
      if (node.alt) out.text(node.alt, lineOf(node));
      return;
    case 'html':
      out.text(htmlFragmentText(node.value), lineOf(node), { collapse: true, lineStep: 0 });
      return;
    case 'footnoteReference':
      return;
    default:
      if ('children' in node) for (const child of node.children as RootContent[]) inline(child as Nodes, out);
  }
}

/** The plain text of a node's inline content (a heading's title). */
function inlineText(node: Nodes): string {
  if (node.type === 'text' || node.type === 'inlineCode') return node.value;
  if (node.type === 'image' || node.type === 'imageReference') return node.alt ?? '';
  if (node.type === 'html') return htmlFragmentText(node.value);
  if ('children' in node) return (node.children as Nodes[]).map(inlineText).join('');
  return '';
}
