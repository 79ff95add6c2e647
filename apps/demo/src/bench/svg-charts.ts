/** Minimal, dependency-free SVG charts for the bench report. */

const PALETTE = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac'];

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);
}

export interface GroupedBarChartOptions {
  title: string;
  /** Category labels along the x axis (e.g. question types). */
  categories: string[];
  /** One series per system: values per category (null = no value). */
  series: { name: string; values: (number | null)[] }[];
  /** Upper bound of the y axis (default: max value). */
  yMax?: number;
  yLabel?: string;
  format?: (value: number) => string;
}

/** A grouped bar chart: categories on x, one coloured bar per series. */
export function groupedBarChart(options: GroupedBarChartOptions): string {
  const width = Math.max(640, options.categories.length * (options.series.length * 18 + 40) + 180);
  const height = 360;
  const left = 60;
  const top = 40;
  const plotW = width - left - 170;
  const plotH = height - top - 70;
  const all = options.series.flatMap((s) => s.values.filter((v): v is number => v !== null));
  const yMax = options.yMax ?? Math.max(1e-9, ...all);
  const format = options.format ?? ((v: number) => v.toFixed(2));
  const groupW = plotW / Math.max(1, options.categories.length);
  const barW = Math.max(4, (groupW - 16) / Math.max(1, options.series.length));
  const parts: string[] = [];
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="11">`);
  parts.push(`<rect width="100%" height="100%" fill="white"/>`);
  parts.push(`<text x="${width / 2}" y="20" text-anchor="middle" font-size="14">${escapeXml(options.title)}</text>`);
  for (let i = 0; i <= 4; i++) {
    const v = (yMax * i) / 4;
    const y = top + plotH - (plotH * i) / 4;
    parts.push(`<line x1="${left}" x2="${left + plotW}" y1="${y}" y2="${y}" stroke="#ddd"/>`);
    parts.push(`<text x="${left - 6}" y="${y + 4}" text-anchor="end">${escapeXml(format(v))}</text>`);
  }
  if (options.yLabel)
    parts.push(`<text x="14" y="${top + plotH / 2}" transform="rotate(-90 14 ${top + plotH / 2})" text-anchor="middle">${escapeXml(options.yLabel)}</text>`);
  options.categories.forEach((category, ci) => {
    const gx = left + ci * groupW + 8;
    options.series.forEach((s, si) => {
      const value = s.values[ci];
      if (value === null || value === undefined) return;
      const h = (Math.min(value, yMax) / yMax) * plotH;
      const x = gx + si * barW;
      parts.push(
        `<rect x="${x.toFixed(1)}" y="${(top + plotH - h).toFixed(1)}" width="${(barW - 2).toFixed(1)}" height="${h.toFixed(1)}" fill="${PALETTE[si % PALETTE.length]}"><title>${escapeXml(`${s.name} · ${category}: ${format(value)}`)}</title></rect>`,
      );
    });
    parts.push(`<text x="${gx + groupW / 2 - 8}" y="${top + plotH + 16}" text-anchor="middle">${escapeXml(category)}</text>`);
  });
  options.series.forEach((s, si) => {
    const y = top + si * 16;
    parts.push(`<rect x="${left + plotW + 16}" y="${y}" width="10" height="10" fill="${PALETTE[si % PALETTE.length]}"/>`);
    parts.push(`<text x="${left + plotW + 30}" y="${y + 9}">${escapeXml(s.name)}</text>`);
  });
  parts.push('</svg>');
  return parts.join('\n');
}

export interface BoxPlotOptions {
  title: string;
  /** One distribution per row: values in ms. */
  rows: { name: string; values: number[] }[];
  unit?: string;
}

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return 0;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

/** Horizontal box plots (p5, p25, p50, p75, p95) on a log-free linear axis. */
export function boxPlot(options: BoxPlotOptions): string {
  const rowH = 28;
  const left = 170;
  const width = 760;
  const plotW = width - left - 30;
  const height = 60 + options.rows.length * rowH + 30;
  const stats = options.rows.map((r) => {
    const s = [...r.values].sort((a, b) => a - b);
    return { name: r.name, p5: quantile(s, 0.05), p25: quantile(s, 0.25), p50: quantile(s, 0.5), p75: quantile(s, 0.75), p95: quantile(s, 0.95) };
  });
  const xMax = Math.max(1e-9, ...stats.map((s) => s.p95));
  const x = (v: number) => left + (v / xMax) * plotW;
  const unit = options.unit ?? 'ms';
  const parts: string[] = [];
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="11">`);
  parts.push(`<rect width="100%" height="100%" fill="white"/>`);
  parts.push(`<text x="${width / 2}" y="20" text-anchor="middle" font-size="14">${escapeXml(options.title)}</text>`);
  stats.forEach((s, i) => {
    const y = 50 + i * rowH;
    parts.push(`<text x="${left - 8}" y="${y + 4}" text-anchor="end">${escapeXml(s.name)}</text>`);
    parts.push(`<line x1="${x(s.p5)}" x2="${x(s.p95)}" y1="${y}" y2="${y}" stroke="#555"/>`);
    parts.push(
      `<rect x="${x(s.p25)}" y="${y - 8}" width="${Math.max(1, x(s.p75) - x(s.p25))}" height="16" fill="${PALETTE[i % PALETTE.length]}" opacity="0.8"><title>${escapeXml(`${s.name}: p50 ${s.p50.toFixed(1)} ${unit}, p95 ${s.p95.toFixed(1)} ${unit}`)}</title></rect>`,
    );
    parts.push(`<line x1="${x(s.p50)}" x2="${x(s.p50)}" y1="${y - 9}" y2="${y + 9}" stroke="black" stroke-width="2"/>`);
  });
  const axisY = 50 + stats.length * rowH;
  for (let i = 0; i <= 4; i++) {
    const v = (xMax * i) / 4;
    parts.push(`<text x="${x(v)}" y="${axisY + 6}" text-anchor="middle">${v.toFixed(1)}</text>`);
  }
  parts.push(`<text x="${left + plotW / 2}" y="${axisY + 22}" text-anchor="middle">${escapeXml(unit)} (box p25–p75, whiskers p5–p95, bar p50)</text>`);
  parts.push('</svg>');
  return parts.join('\n');
}
