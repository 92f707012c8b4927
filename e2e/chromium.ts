/**
 * Launch options of Debian's Chromium for every browser run (Playwright projects and the drop-in benchmark).
 * The background-networking flags keep Chromium from dialling out on a machine with no outside network.
 */
export const chromiumLaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
};
