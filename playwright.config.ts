import { defineConfig } from "@playwright/test";

// Browser tests use Debian's Chromium: Playwright's own browser download is not available everywhere.
export default defineConfig({
  testDir: "tests/e2e",
  globalSetup: "./tests/helpers/global-setup.ts",
  timeout: 90_000,
  fullyParallel: false,
  workers: 2,
  reporter: [["list"]],
  use: {
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    },
  },
});
