// The one Chromium every browser run uses (web-test-runner, Playwright tests, the bench): Debian's, or the
// one named by CHROME_PATH, with the flags that keep it from hanging on a closed network (TOOLCHAIN.md).
export const CHROMIUM_PATH = process.env.CHROME_PATH || '/usr/bin/chromium';

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
