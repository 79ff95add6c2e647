import { extractText, getDocumentProxy, getMeta } from 'unpdf';
import { CleanTextBuilder, type CleanDocument } from './clean-text-builder.js';

type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>;
interface OutlineNode {
  title: string;
  dest: string | unknown[] | null;
  items: OutlineNode[];
}

/**
 * PDF to clean text with PDF.js (through unpdf's serverless build, no canvas, no native code):
 * the text of every page in order, each page a block that records its page number; the title is
 * the document's Title metadata, else its first line. When the PDF has bookmarks (an outline),
 * each bookmark opens a section at the start of its page. Throws when the file is not a PDF
 * or is encrypted.
 */
export async function readPdf(bytes: Uint8Array): Promise<CleanDocument> {
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  try {
    const { text: pages } = await extractText(pdf, { mergePages: false });
    const bookmarks = await pageBookmarks(pdf);
    const out = new CleanTextBuilder();
    pages.forEach((page, index) => {
      out.page(index + 1);
      for (const bookmark of bookmarks.get(index) ?? []) out.section(bookmark.path);
      out.text(
        page
          .replace(/[ \t]+\n/g, '\n')
          .replace(/\n{3,}/g, '\n\n')
          .trim(),
      );
      out.endBlock();
    });
    const info = ((await getMeta(pdf)).info ?? {}) as Record<string, unknown>;
    const metaTitle = typeof info.Title === 'string' ? info.Title.trim() : '';
    const firstLine = pages.join('\n').trim().split('\n')[0]?.trim().slice(0, 160) ?? '';
    const title = metaTitle || firstLine;
    return out.build({ format: 'pdf', ...(title ? { title } : {}) });
  } finally {
    await pdf.loadingTask.destroy();
  }
}

/** Bookmarks by 0-based page index: each with its trail of titles, outermost first. */
async function pageBookmarks(pdf: PdfDocument): Promise<Map<number, Array<{ path: string[] }>>> {
  const byPage = new Map<number, Array<{ path: string[] }>>();
  let outline: OutlineNode[] | null = null;
  try {
    outline = (await pdf.getOutline()) as OutlineNode[] | null;
  } catch {
    return byPage;
  }
  const visit = async (nodes: OutlineNode[], trail: string[]) => {
    for (const node of nodes) {
      const path = [...trail, node.title.replace(/\s+/g, ' ').trim()];
      const page = await pageOf(pdf, node.dest);
      if (page !== undefined) {
        let list = byPage.get(page);
        if (!list) byPage.set(page, (list = []));
        list.push({ path });
      }
      await visit(node.items ?? [], path);
    }
  };
  await visit(outline ?? [], []);
  return byPage;
}

async function pageOf(pdf: PdfDocument, dest: OutlineNode['dest']): Promise<number | undefined> {
  try {
    const explicit = typeof dest === 'string' ? await pdf.getDestination(dest) : dest;
    const target = explicit?.[0];
    if (typeof target === 'number') return target;
    if (target && typeof target === 'object') return await pdf.getPageIndex(target as Parameters<PdfDocument['getPageIndex']>[0]);
  } catch {
    // A broken bookmark names no page.
  }
  return undefined;
}
