// `npm run lint`: ESLint with typescript-eslint's recommended rules, React hooks and Next.js's
// own rules. Run by `npm test` (and so by CI) before the unit tests.
import js from "@eslint/js";
import nextPlugin from "@next/eslint-plugin-next";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["node_modules/", ".next/", ".next-*/", "server/db/generated/", "server/otel/proto/", "e2e/screenshots/", "next-env.d.ts"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
    },
  },
  {
    files: ["app/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks, "@next/next": nextPlugin },
    // The hooks rules that hold for any React code; the React Compiler's stricter set is not adopted.
    rules: { "react-hooks/rules-of-hooks": "error", "react-hooks/exhaustive-deps": "warn", ...nextPlugin.configs.recommended.rules },
  },
  {
    // Tests and their harness read untyped JSON answers.
    files: ["**/*.test.ts", "e2e/**/*.ts", "bench/**/*.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
);
