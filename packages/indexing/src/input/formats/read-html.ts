import { Parser } from 'htmlparser2';
import { CleanTextBuilder, lineOfIndex, lineStarts, type CleanDocument } from './clean-text-builder.js';

/** Elements whose content is never text: dropped with everything inside them. */
const DROPPED = new Set(['script', 'style', 'noscript', 'template', 'svg', 'math', 'nav', 'head', 'iframe', 'object', 'canvas', 'select', 'button']);
/** Navigation and page furniture of documentation generators (DocBook, Sphinx, MkDocs, Doxygen, …), by class or id. */
const FURNITURE =
  /(^|[\s_-])(nav|navheader|navfooter|navbar|navigation|sidebar|sphinxsidebar|related|breadcrumbs?|toc|tocwrapper|headerlink|header|nav-panel|skip-?link|footer|menu|searchbox)($|[\s_-])/i;
/** Roles of landmarks that are not content. */
const FURNITURE_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'search', 'menu', 'menubar']);
/** Elements that end a block of text. */
const BLOCKS = new Set([
  'p',
  'div',
  'section',
  'article',
  'main',
  'aside',
  'header',
  'footer',
  'blockquote',
  'pre',
  'ul',
  'ol',
  'li',
  'dl',
  'dt',
  'dd',
  'table',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'caption',
  'figure',
  'figcaption',
  'form',
  'fieldset',
  'address',
  'hr',
  'body',
  'html',
  'details',
  'summary',
  'center',
]);
const HEADINGS: Record<string, number> = { h1: 1, h2: 2, h3: 3, h4: 4, h5: 5, h6: 6 };
/** Elements that never have a closing tag (htmlparser2 reports them closed at once). */
const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);

/**
 * HTML to clean text with htmlparser2's streaming parser (no DOM is built): the `<title>` is
 * the title (else the first `<h1>`), `<h1>`–`<h6>` open sections, a definition term with an id
 * (`<dt id=…>`: a function of a Sphinx page, a setting of a DocBook one) opens an entry section named by
 * its text (`DocumentSection.entry`) until the next such term of its list or the list's end, block elements end
 * paragraphs, table cells are separated by tabs, `<pre>` keeps its line breaks, entities are
 * decoded. Scripts, styles, `<head>`, `<nav>`, navigation landmarks and the navigation furniture
 * of documentation generators (class or id such as navheader, sphinxsidebar, breadcrumb,
 * headerlink) are dropped. Each block records the source line its text starts on.
 */
export function readHtml(source: string): CleanDocument {
  const starts = lineStarts(source);
  const out = new CleanTextBuilder();
  let dropDepth = 0; // > 0 while inside a dropped element
  const stack: boolean[] = []; // per open element: was it dropped?
  let title = '';
  let inTitle = false;
  let titleSeen = false;
  let heading: { level: number; text: string; line: number } | undefined;
  let preDepth = 0;
  // Entries: a definition term with an id (an anchor: a function of a Sphinx page, a setting of a DocBook
  // one, "max_connections (integer)") opens an entry section, named by the term's text, until the next
  // such term of its list or the list's end; lists nest. Per open <dl>: whether one of its entries is open.
  const lists: boolean[] = [];
  const entries: string[] = [];
  let term: { id: string; text: string; section: { rename(path: string[]): void } } | undefined;
  // The rest of a section after its entries: no new part of the outline either.
  const resume = () => out.section([...out.headingTrail, ...entries], { entry: true });
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === 'title' && !titleSeen) inTitle = titleSeen = true;
        const drop = dropDepth > 0 || DROPPED.has(name) || isFurniture(attributes);
        if (!VOID.has(name)) stack.push(drop);
        if (drop) {
          if (!VOID.has(name)) dropDepth += 1;
          return;
        }
        const level = HEADINGS[name];
        if (name === 'dl') lists.push(false);
        else if (name === 'dt' && attributes.id && lists.length > 0 && !heading) {
          if (lists[lists.length - 1]) entries.pop();
          lists[lists.length - 1] = true;
          entries.push('');
          term = { id: attributes.id, text: '', section: out.section([...out.headingTrail, ...entries], { entry: true }) };
        }
        if (level !== undefined) heading = { level, text: '', line: lineOfIndex(starts, parser.startIndex) };
        else if (name === 'br') out.lineBreak();
        else if (name === 'td' || name === 'th') out.separator('\t');
        else if (BLOCKS.has(name)) out.endBlock();
        if (name === 'pre') preDepth += 1;
      },
      ontext(data) {
        if (inTitle) title += data;
        if (dropDepth > 0) return;
        if (term) term.text += data;
        if (heading) heading.text += data;
        else out.text(data, lineOfIndex(starts, parser.startIndex), preDepth > 0 ? {} : { collapse: true, lineStep: 1 });
      },
      onclosetag(name) {
        if (name === 'title') inTitle = false;
        if (VOID.has(name)) return;
        const dropped = stack.pop();
        if (dropped) {
          dropDepth = Math.max(0, dropDepth - 1);
          return;
        }
        if (name === 'dt' && term) {
          // Named by its text as shown (by its id when it shows none).
          entries[entries.length - 1] = term.text.replace(/\s+/g, ' ').trim() || term.id;
          term.section.rename([...out.headingTrail, ...entries]);
          term = undefined;
        }
        if (name === 'dl' && lists.pop()) {
          entries.pop();
          out.endBlock();
          resume();
        }
        if (heading && HEADINGS[name] !== undefined) {
          // A heading ends the entries it interrupts (rare: a heading inside a definition).
          entries.length = 0;
          lists.fill(false);
          out.heading(heading.level, heading.text.replace(/[¶#]\s*$/, ''), heading.line);
          heading = undefined;
        } else if (BLOCKS.has(name) || name === 'td' || name === 'th') {
          if (name === 'pre') preDepth = Math.max(0, preDepth - 1);
          if (name !== 'td' && name !== 'th') out.endBlock();
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(source);
  const clean = title.replace(/\s+/g, ' ').trim();
  return out.build({ format: 'html', ...(clean ? { title: clean } : {}) });
}

function isFurniture(attributes: Record<string, string>): boolean {
  if (attributes.role && FURNITURE_ROLES.has(attributes.role.toLowerCase())) return true;
  if (attributes['aria-hidden'] === 'true' || 'hidden' in attributes) return true;
  return FURNITURE.test(attributes.class ?? '') || FURNITURE.test(attributes.id ?? '');
}

/** The text of an HTML fragment (raw HTML inside Markdown): tags dropped, entities decoded, scripts and styles dropped. */
export function htmlFragmentText(fragment: string): string {
  let text = '';
  let dropDepth = 0;
  const parser = new Parser(
    {
      onopentag(name) {
        if (dropDepth > 0 || name === 'script' || name === 'style') dropDepth += VOID.has(name) ? 0 : 1;
      },
      ontext(data) {
        if (dropDepth === 0) text += data;
      },
      onclosetag(name) {
        if (dropDepth > 0 && !VOID.has(name)) dropDepth -= 1;
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.end(fragment);
  return text;
}
