// Runs every bench:* script of the root package.json in turn; each prints its own figures.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const scripts = Object.keys(JSON.parse(readFileSync('package.json', 'utf8')).scripts).filter(
  (name) => name.startsWith('bench:'),
);
let failed = false;
for (const name of scripts) {
  console.log(`\n# ${name}`);
  const run = spawnSync('npm', ['run', '--silent', name], { stdio: 'inherit' });
  if (run.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
