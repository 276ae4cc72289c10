import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const serverOrigin = `http://127.0.0.1:${process.env.SERVER_PORT ?? '3000'}`;

export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', sourcemap: true },
  server: {
    proxy: {
      '/api': serverOrigin,
      '/ws': { target: serverOrigin.replace('http', 'ws'), ws: true },
    },
  },
});
