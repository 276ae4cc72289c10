import react from '@vitejs/plugin-react';
import { defineConfig, type PluginOption } from 'vite';

const serverOrigin = `http://127.0.0.1:${process.env.SERVER_PORT ?? '3000'}`;

// NOTE: @vitejs/plugin-react is typed against the workspace's Vite 8 (Vitest's), while this
// package builds with Vite 7; the plugin supports both, only their plugin types differ.
const reactPlugin = react() as unknown as PluginOption;

export default defineConfig({
  plugins: [reactPlugin],
  build: { outDir: 'dist', sourcemap: true },
  server: {
    proxy: {
      '/api': serverOrigin,
      '/ws': { target: serverOrigin.replace('http', 'ws'), ws: true },
    },
  },
});
