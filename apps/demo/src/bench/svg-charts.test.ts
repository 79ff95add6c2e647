import { describe, expect, it } from 'vitest';
import { boxPlot, groupedBarChart } from './svg-charts.js';

describe('svg charts', () => {
  it('draws one bar per non-null value with escaped labels', () => {
    const svg = groupedBarChart({
      title: 'ER <by> type',
      categories: ['Fact', 'Complex'],
      series: [
        { name: 'bm25', values: [0.5, null] },
        { name: 'mosaic', values: [0.7, 0.4] },
      ],
      yMax: 1,
    });
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg.match(/<rect x=/g)?.length).toBe(3 + 2); // 3 bars + 2 legend swatches
    expect(svg).toContain('ER &lt;by&gt; type');
  });

  it('draws a box per row', () => {
    const svg = boxPlot({
      title: 't',
      rows: [
        { name: 'a', values: [1, 2, 3] },
        { name: 'b', values: [10, 20] },
      ],
    });
    expect(svg.match(/<title>/g)?.length).toBe(2);
    expect(svg).toContain('p50 2.0 ms');
  });
});
