import type { LaunchOptions } from "@playwright/test";

/**
 * How every test, benchmark and screenshot launches a browser: Debian's Chromium, since Playwright's
 * own download is not reachable everywhere. Its headless shell (package chromium-headless-shell), the
 * build Playwright itself runs headless, renders the same pages as the full browser for about 40 %
 * less CPU (docs/testing.md). CHROMIUM_PATH chooses another binary.
 */
export const chromiumLaunchOptions: LaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium-headless-shell",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
};
