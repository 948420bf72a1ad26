/**
 * One Chromium per test file: Debian's (or CHROME_PATH), with the flags that keep it from hanging on a
 * closed network (see TOOLCHAIN.md).
 */
import { type Browser, chromium } from 'playwright-core';

export const CHROMIUM_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env['CHROME_PATH'] || '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
}
