import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './precompress';

const backend = 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react(), precompress()],
  server: {
    proxy: {
      '/auth': { target: backend, changeOrigin: false },
      '/api': { target: backend, changeOrigin: false },
      '/stats': { target: backend, changeOrigin: false },
      '/mailbox': { target: backend, changeOrigin: false },
      '/app-config.js': { target: backend, changeOrigin: false },
    },
  },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true, chunkSizeWarningLimit: 1000 },
});
