import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findWorkspaceRoot } from '@mosaic/encoders/internal';
import { CONTROL_FIELDS } from '@mosaic/policy-schema';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureExplorer, type FixtureExplorer } from './__fixtures__/fixture-explorer.js';
import { bundleExplorerClient } from './bundle-explorer-client.js';

// A real browser: Debian's chromium driven by playwright-core. `.ci/run` installs it (apt-get install chromium).
const CHROMIUM = '/usr/bin/chromium';
const HAVE_CHROMIUM = existsSync(CHROMIUM);
const ROOT = findWorkspaceRoot(dirname(fileURLToPath(import.meta.url))) ?? process.cwd();
/** Where the screenshots go (gitignored .mosaic/); MOSAIC_EXPLORER_SCREENSHOT_DIR overrides. */
const SHOT_DIR = resolve(process.env.MOSAIC_EXPLORER_SCREENSHOT_DIR ?? join(ROOT, '.mosaic', 'artifacts'));
const QUESTION = 'What drug treats the disease caused by veltrane dust?';

if (!HAVE_CHROMIUM) {
  console.warn(`explorer browser test skipped: ${CHROMIUM} is absent (install it with: apt-get install -y chromium)`);
}

describe.skipIf(!HAVE_CHROMIUM)(`explorer in a real browser (${CHROMIUM}, headless)`, () => {
  let fixture: FixtureExplorer;
  let assets: string;
  let profile: string;
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    assets = mkdtempSync(join(tmpdir(), 'mosaic-explorer-client-'));
    profile = mkdtempSync(join(tmpdir(), 'mosaic-explorer-profile-'));
    await bundleExplorerClient({ outDir: assets });
    fixture = await startFixtureExplorer({ assetsDir: assets });
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      viewport: { width: 1600, height: 1000 },
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        '--disable-quic',
        '--disable-sync',
      ],
    });
    page = context.pages()[0] ?? (await context.newPage());
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
    });
  });

  afterAll(async () => {
    await context?.close();
    await fixture?.close();
    for (const dir of [assets, profile]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('asks a question and draws the policy panel, the graph and the windows', async () => {
    await page.goto(fixture.server.url);
    await page.waitForSelector('body[data-state="ready"]', { timeout: 120_000 });
    expect(await page.locator('#corpus option').count()).toBe(5);
    expect(await page.locator('#examples button').count()).toBeGreaterThan(0);

    await page.fill('#question', QUESTION);
    await page.click('#ask-button');
    await page.waitForSelector('body[data-state="done"]', { timeout: 120_000 });

    // Policy panel: every control next to its default, targets, the analyzer's account.
    const policy = page.getByTestId('policy-panel');
    expect(await policy.isVisible()).toBe(true);
    expect(await policy.locator('tbody tr[data-control]').count()).toBe(CONTROL_FIELDS.length);
    for (const control of CONTROL_FIELDS) expect(await policy.locator(`tr[data-control="${control}"] td`).count()).toBe(3);
    expect(await policy.textContent()).toMatch(/Validation changed/);
    expect(await policy.locator('.chip.target').count()).toBeGreaterThan(0);

    // The sigma graph: its canvases fill the panel and the 2D label layer has drawn node labels.
    const graph = page.getByTestId('graph');
    expect(await graph.locator('canvas').count()).toBeGreaterThanOrEqual(3);
    const box = await graph.boundingBox();
    expect(box!.width).toBeGreaterThan(300);
    expect(box!.height).toBeGreaterThan(300);
    const inkedLabels = () =>
      page.evaluate(() => {
        const canvas = document.querySelector<HTMLCanvasElement>('#graph canvas.sigma-labels')!;
        const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
        let inked = 0;
        for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) inked++;
        return inked;
      });
    const allLabels = await inkedLabels();
    expect(allLabels).toBeGreaterThan(500);

    // Stop decision per depth and the depth slider.
    const depths = await page.locator('#stop-body tbody tr').count();
    expect(depths).toBeGreaterThan(0);
    expect(await page.locator('#stop-body tr.stop').count()).toBe(1);
    await page.locator('#depth-slider').fill('0');
    expect(await page.textContent('#depth-label')).toMatch(/^depth 0 of \d/);
    expect(await page.textContent('#beam-list')).toMatch(/seeds/);
    expect(await inkedLabels()).toBeLessThan(allLabels);
    await page.click('#depth-next');
    expect(await page.textContent('#depth-label')).toMatch(/^depth 1 of \d/);
    await page.locator('#depth-slider').fill(String(depths));

    // Windows with highlighted evidence, linked to the evidence list.
    const windows = page.getByTestId('windows');
    expect(await windows.locator('li.window').count()).toBeGreaterThan(0);
    expect(await windows.locator('mark').count()).toBeGreaterThan(0);
    expect(await windows.locator('.window-text .ev').count()).toBeGreaterThan(0);
    const chip = windows.locator('li.window').first().locator('button.chip').first();
    const evidenceId = await chip.getAttribute('data-evidence');
    await chip.click();
    expect(await page.locator(`#evidence li.focused[data-evidence="${evidenceId}"]`).count()).toBe(1);
    expect((await page.getByTestId('answer').textContent())!.length).toBeGreaterThan(20);

    await chip.click(); // a second click clears the focus
    expect(await page.locator('#evidence li.focused').count()).toBe(0);
    mkdirSync(SHOT_DIR, { recursive: true });
    await page.screenshot({ path: join(SHOT_DIR, 'explorer.png'), fullPage: true });
    expect(problems).toEqual([]);
  });

  it('reruns the question under Narrow / Medium / Wide side by side', async () => {
    await page.check('#compare-switch');
    await page.waitForSelector('#compare[data-state="done"]', { timeout: 120_000 });
    const columns = page.locator('#compare .compare-col');
    expect(await columns.count()).toBe(3);
    for (const policy of ['narrow', 'medium', 'wide']) {
      const column = page.locator(`#compare .compare-col[data-policy="${policy}"]`);
      expect(await column.locator('canvas').count()).toBeGreaterThanOrEqual(3);
      expect(await column.locator('.windows li').count()).toBeGreaterThan(0);
    }
    await page.screenshot({ path: join(SHOT_DIR, 'explorer-compare.png'), fullPage: true });
    await page.uncheck('#compare-switch');
    expect(await page.locator('#compare').isHidden()).toBe(true);
    expect(problems).toEqual([]);
  });

  it('marks the controls validation changed in an analyzer’s policy', async () => {
    await page.selectOption('#corpus', 'analyzer-openai');
    await page.click('#ask-button');
    await page.waitForSelector('body[data-state="done"]', { timeout: 120_000 });
    const policy = page.getByTestId('policy-panel');
    expect(await policy.locator('tr.changed[data-control="seedLimit"] .note').textContent()).toMatch(/clamped from 40/);
    expect(await policy.textContent()).toMatch(/Validation changed:/);
    expect(await policy.locator('.chip.target').allTextContents()).toEqual(expect.arrayContaining(['veltrane dust', 'anti-inflammatory drug']));
    await page.screenshot({ path: join(SHOT_DIR, 'explorer-validation.png'), fullPage: false });
    expect(problems).toEqual([]);
  });

  it('shows a failing generator as a readable message, not a blank page', async () => {
    await page.selectOption('#corpus', 'generator-down');
    await page.click('#ask-button');
    await page.waitForSelector('body[data-state="error"]', { timeout: 120_000 });
    const error = page.getByTestId('error');
    expect(await error.isVisible()).toBe(true);
    expect(await error.textContent()).toMatch(/generator failed.*HTTP 502/i);
    // The previous result stays on the page.
    expect(await page.getByTestId('policy-panel').isVisible()).toBe(true);
    // Failed HTTP answers show up as console errors of the browser; only the 502 is expected here.
    expect(problems.filter((p) => !/502/.test(p))).toEqual([]);
  });
});
