// Starts the server (reloading on change) and the Vite dev server side by side.
import { spawn } from 'node:child_process';

const children = [
  spawn('npm', ['run', 'dev', '-w', '@lattice/server'], { stdio: 'inherit' }),
  spawn('npm', ['run', 'dev', '-w', '@lattice/web'], { stdio: 'inherit' }),
];
const stop = () => {
  for (const child of children) child.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) child.on('exit', (code) => code && stop());
