import { defineConfig } from "@playwright/test";
import { chromiumLaunchOptions } from "./tests/helpers/chromium";

export default defineConfig({
  testDir: "tests/e2e",
  globalSetup: "./tests/helpers/global-setup.ts",
  timeout: 90_000,
  fullyParallel: false,
  workers: 2,
  reporter: [["list"]],
  use: {
    launchOptions: chromiumLaunchOptions,
  },
});
