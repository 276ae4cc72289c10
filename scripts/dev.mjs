// Starts the server (reloading on change) and the Vite dev server side by side. The server
// keeps its data in ./data at the root, as `npm start` does, unless DATA_DIR says otherwise.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

const serverEnv = { ...process.env, DATA_DIR: process.env.DATA_DIR || resolve('data') };
const children = [
  spawn('npm', ['run', 'dev', '-w', '@lattice/server'], { stdio: 'inherit', env: serverEnv }),
  spawn('npm', ['run', 'dev', '-w', '@lattice/web'], { stdio: 'inherit' }),
];
const stop = () => {
  for (const child of children) child.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) child.on('exit', (code) => code && stop());
