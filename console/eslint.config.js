// ESLint for the console (`npm run lint`, run by dev/test.sh). Besides the usual TypeScript,
// React hooks and accessibility rules, it keeps the layout of bulletproof-react (README "Layout"):
// no feature imports another, only the app layer composes features, no barrel files, route hrefs
// only from config/paths.ts.
import { readdirSync } from 'node:fs';

import js from '@eslint/js';
import importPlugin from 'eslint-plugin-import';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

/** A feature imports only itself (shared code lives in components/, lib/, config/). */
const noCrossFeature = features.map((feature) => ({
  target: `./src/features/${feature}`,
  from: './src/features',
  except: [`./${feature}`],
  message: 'Features never import another feature: compose them in src/app, or move the shared part to components/ or lib/.',
}));

/** Only the app layer (and main.tsx) composes features; shared code never reaches up. */
const layers = [
  {
    target: ['./src/features', './src/components', './src/lib', './src/config'],
    from: './src/app',
    message: 'The app layer imports features and shared code, never the other way round.',
  },
  {
    target: ['./src/components', './src/lib', './src/config'],
    from: './src/features',
    message: 'Shared code (components/, lib/, config/) never imports a feature.',
  },
];

// Selectors for no-restricted-syntax. A later config block replaces the rule's list, so each block
// below lists every selector it keeps.
const ROUTE = String.raw`/^\x2F(?!v1\x2F|v2\x2F|readyz|favicon)[a-z]/`;
const ROUTE_MESSAGE = 'Route paths come only from config/paths.ts (paths.x.getHref()).';
const routeLiterals = [
  `JSXAttribute[name.name=/^(to|href)$/] > Literal[value=${ROUTE}]`,
  `JSXAttribute[name.name=/^(to|href)$/] > JSXExpressionContainer > Literal[value=${ROUTE}]`,
  `JSXAttribute[name.name=/^(to|href)$/] > JSXExpressionContainer > TemplateLiteral > TemplateElement:first-child[value.raw=${ROUTE}]`,
  `CallExpression[callee.name="navigate"] > Literal[value=${ROUTE}]`,
  `CallExpression[callee.name="navigate"] > TemplateLiteral > TemplateElement:first-child[value.raw=${ROUTE}]`,
].map((selector) => ({ selector, message: ROUTE_MESSAGE }));

const realTimeClock = {
  selector: 'Property[key.name="shouldAdvanceTime"][value.value=true]',
  message: 'A fake clock that also follows real time makes outcomes depend on the speed of the machine (testing/clock.ts).',
};

const barrel = {
  selector: 'Program',
  message: 'No barrel index files: import each module from its own file.',
};

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'test-results', 'e2e-screenshots', 'src/lib/api/schema.d.ts'] },
  {
    files: ['**/*.{js,mjs,ts,tsx}'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      // `const { feature: _feature, ...rest } = x` is how an object drops a field.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
    },
  },
  {
    // Node: the build and test configuration, scripts and the Playwright specs.
    files: ['*.{js,ts}', 'scripts/**', 'e2e/**'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    extends: [reactHooks.configs.flat.recommended, jsxA11y.flatConfigs.recommended],
    plugins: { import: importPlugin },
    settings: {
      'import/resolver': { typescript: { project: './tsconfig.json' } },
      // Components that render these elements, so jsx-a11y checks them as such. Mantine's Anchor
      // is left out: here it renders react-router's Link (`component={Link} to=…`), whose address
      // jsx-a11y cannot see through the polymorphic prop.
      'jsx-a11y': {
        components: { ActionIcon: 'button', Button: 'button', Image: 'img', Link: 'a', UnstyledButton: 'button' },
      },
    },
    rules: {
      'import/no-restricted-paths': ['error', { zones: [...noCrossFeature, ...layers] }],
      'no-restricted-syntax': ['error', realTimeClock, ...routeLiterals],
      // A router link's address is its `to`.
      'jsx-a11y/anchor-is-valid': ['error', { components: ['Link'], specialLink: ['to'] }],
    },
  },
  {
    // Tests and test helpers render the app as a whole and may write any route.
    files: ['src/**/*.test.{ts,tsx}', 'src/testing/**'],
    rules: {
      'import/no-restricted-paths': ['error', { zones: noCrossFeature }],
      'no-restricted-syntax': ['error', realTimeClock],
    },
  },
  {
    files: ['src/config/paths.ts'],
    rules: { 'no-restricted-syntax': ['error', realTimeClock] },
  },
  {
    files: ['src/**/index.{ts,tsx}'],
    rules: { 'no-restricted-syntax': ['error', realTimeClock, ...routeLiterals, barrel] },
  },
);
