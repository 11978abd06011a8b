/**
 * Builds the UI to `dist/web`, the static assets `ensign server` serves at `/`. Hashed file names
 * under `assets/` let the server cache them for a year; `index.html` is always revalidated.
 */
import { defineConfig } from 'vite';

export default defineConfig({
  base: '/',
  build: {
    outDir: 'dist/web',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      // React libraries mark their modules "use client" for server components; a browser bundle has no use for it.
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
});
