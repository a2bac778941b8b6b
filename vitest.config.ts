import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const alias = { "@": fileURLToPath(new URL(".", import.meta.url)) };

// The API suite runs twice, once per database; unit tests once.
export default defineConfig({
  resolve: { alias },
  test: {
    globalSetup: ["tests/helpers/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    projects: [
      { resolve: { alias }, test: { name: "unit", include: ["tests/unit/**/*.test.ts"] } },
      { resolve: { alias }, test: { name: "sqlite", include: ["tests/api/**/*.test.ts"], env: { TEST_DB: "sqlite" }, testTimeout: 60_000, hookTimeout: 120_000 } },
      { resolve: { alias }, test: { name: "postgres", include: ["tests/api/**/*.test.ts"], env: { TEST_DB: "postgres" }, testTimeout: 60_000, hookTimeout: 120_000 } },
    ],
  },
});
