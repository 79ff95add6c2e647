const t00 = performance.now();
const { loadIndex } = await import('@mosaic/indexing'); const { createEmbeddedEncoder } = await import('@mosaic/encoders');
const t0 = performance.now();
const encoder = await createEmbeddedEncoder();
const t1 = performance.now();
const index = await loadIndex({ dir: process.argv[2], encoder });
const t2 = performance.now();
const r = process.resourceUsage();
console.log(`imports ${((t0 - t00) / 1000).toFixed(2)} s, encoder ${((t1 - t0) / 1000).toFixed(2)} s, loadIndex ${((t2 - t1) / 1000).toFixed(2)} s, cpu user ${(r.userCPUTime / 1e6).toFixed(2)} sys ${(r.systemCPUTime / 1e6).toFixed(2)}, maxRSS ${(r.maxRSS / 1024).toFixed(0)} MB`);
