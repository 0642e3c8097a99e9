// Plain Vite: Preact's automatic JSX runtime through the built-in transform (no plugin), one entry,
// hashed assets, no inline scripts (the backend serves it under a CSP without 'unsafe-inline').
import { defineConfig } from 'vite';

export default defineConfig({
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    reportCompressedSize: false,
  },
});
