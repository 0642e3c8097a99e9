// The web console's browser tests' shared steps: a signed-in page on a real backend, axe-core runs,
// screenshots at a desktop and a phone size with a horizontal-overflow check.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium, SCREENSHOT_DIR, screenshot } from './browser';
import type { Cleanup } from './cleanup';
import { REPO_ROOT } from './processes';

/** axe-core, test-only: injected into the page under test, never bundled. */
const AXE = join(REPO_ROOT, 'node_modules/axe-core/axe.min.js');

export const DESKTOP = { width: 1440, height: 900 };
export const PHONE = { width: 390, height: 844 };

/** One Chromium per test file (each test opens its own contexts). */
export async function consoleBrowser(cleanup: Cleanup): Promise<Browser> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  return launchChromium(cleanup);
}

/**
 * A page signed in with `token` (the sign-in cookie set by POST /login, as the sign-in form does).
 * `bypassCSP` lets axe-core be injected; the console's own CSP is checked by the other tests.
 */
export async function signedInPage(
  browser: Browser,
  url: string,
  token: string,
  options: { colorScheme?: 'light' | 'dark'; bypassCSP?: boolean } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: DESKTOP,
    colorScheme: options.colorScheme ?? 'light',
    bypassCSP: options.bypassCSP ?? false,
  });
  const login = await context.request.post(`${url}/login`, { data: { token }, headers: { origin: url } });
  if (login.status() !== 204) throw new Error(`sign-in: ${login.status()} ${await login.text()}`);
  const page = await context.newPage();
  return { context, page };
}

/** The axe-core violations of impact serious or critical on the page as it is now. */
export async function seriousViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate('typeof window.axe !== "undefined"'))) {
    await page.addScriptTag({ path: AXE });
  }
  const result = await page.evaluate<{
    passes: number;
    violations: { id: string; impact: string; targets: string[] }[];
  }>(
    `window.axe.run(document).then((r) => ({ passes: r.passes.length, violations: r.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.map((n) => n.target.join(' ')) })) }))`,
  );
  // A run that checked nothing would pass anything: it must have passed some rules.
  if (result.passes === 0) throw new Error('axe-core checked nothing on this page');
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.targets.join(', ')}`);
}

/** How far the page is wider than the viewport (0: no horizontal scrolling). */
export function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
}

/**
 * Screenshots of the page at 1440×900 and 390×844 (`console-<name>-desktop.png`, `-phone.png`), in
 * the light or dark scheme; at the phone size the page must not scroll sideways.
 */
export async function screenshotsOf(page: Page, name: string): Promise<void> {
  await page.setViewportSize(DESKTOP);
  await screenshot(page, `${name}-desktop`);
  await page.setViewportSize(PHONE);
  expect({ page: name, overflow: await horizontalOverflow(page) }).toEqual({ page: name, overflow: 0 });
  await screenshot(page, `${name}-phone`);
  await page.setViewportSize(DESKTOP);
}

/** A scripted-agent turn: on "ask me" the agent asks which database, then thanks the operator. */
export const ASK_DATABASE_TURN = {
  match: { contains: 'ask me' },
  steps: [
    {
      call_tool: {
        name: 'ask_user_question_kandev',
        arguments: {
          questions: [{ id: 'db', prompt: 'Which database?', options: [{ label: 'SQLite' }, { label: 'Postgres' }] }],
        },
      },
    },
    { reply: 'Thanks.' },
  ],
};

/** Types a prompt into the task page's prompt box and sends it. */
export async function sendPrompt(page: Page, prompt: string): Promise<void> {
  await page.getByLabel('Prompt', { exact: true }).fill(prompt);
  await page.getByRole('button', { name: 'Send prompt' }).click();
}
