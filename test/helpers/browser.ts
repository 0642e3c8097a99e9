// Debian's Chromium driven by playwright-core (no browser download): headless, with the flags this
// machine's closed network needs (no background fetches that would fail or hang), a fresh profile.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import type { Cleanup } from './cleanup';
import { REPO_ROOT } from './processes';

/** KANDEV_CHROMIUM when set, else Debian's /usr/bin/chromium; undefined when it does not exist. */
export function chromiumPath(): string | undefined {
  const configured = process.env.KANDEV_CHROMIUM ?? '';
  const path = configured !== '' ? configured : '/usr/bin/chromium';
  return existsSync(path) ? path : undefined;
}

export const SCREENSHOT_DIR = join(REPO_ROOT, 'test-results');

export async function launchChromium(cleanup: Cleanup): Promise<Browser> {
  const executablePath = chromiumPath();
  if (executablePath === undefined)
    throw new Error('no Chromium: install it (apt-get install chromium) or set KANDEV_CHROMIUM');
  const browser = await chromium.launch({
    executablePath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  cleanup.defer(() => browser.close());
  return browser;
}

/** A full-page screenshot under test-results/ (git-ignored), for a person to look at. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SCREENSHOT_DIR, `console-${name}.png`), fullPage: true });
}
