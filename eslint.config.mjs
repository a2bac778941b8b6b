// The project's own checks, run by `npm test`: Next's rules (React, hooks, accessibility, Core Web
// Vitals), typescript-eslint's recommended rules, and no import cycles.
import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

export default defineConfig([
  ...nextVitals,
  ...nextTypescript,
  globalIgnores([".next/**", "lib/db/generated/**", "next-env.d.ts", "test-results/**", "playwright-report/**", "bench-results/**", "data/**", "cli/dist/**"]),
  {
    // The cycle check follows imports only through this project's files: parsing every package it
    // reaches (Next's, Prisma's, zod's type declarations) took nine tenths of ESLint's time.
    settings: { "import/ignore": ["node_modules"] },
    rules: {
      // A leading underscore names what a destructuring leaves out on purpose.
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true }],
      // Its links go to route handlers (/api/onboard, sign-in) or load a whole page on purpose (the
      // sign-in and error pages work without JavaScript); next/link would make them client navigations.
      "@next/next/no-html-link-for-pages": "off",
      // Rules for code the React Compiler compiles, which this app's is not. Its effects set state once
      // the page has mounted (the browser's time zone, whether files can be dropped) or once a form was
      // accepted, and the refs its file-drop hook is given are read only in event handlers.
      "react-hooks/set-state-in-effect": "off",
      "react-hooks/refs": "off",
    },
  },
  {
    // No import cycles. Only among files that are imported: a test or a script is an entry point no
    // file imports, so no cycle runs through it, and following its imports cost half of ESLint's time.
    files: ["app/**", "lib/**", "cli/src/**", "tests/helpers/**", "*.ts"],
    rules: { "import/no-cycle": "error" },
  },
  {
    // The command-line client is published on its own and talks to the server over HTTP only.
    files: ["cli/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["@/*", "../../*"], message: "The CLI runs without the server's code: reach the server over HTTP (cli/src/api.ts)." }] },
      ],
    },
  },
  {
    // Tests read JSON answers whose shapes the assertions check.
    files: ["tests/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
]);
