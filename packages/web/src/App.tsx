import { useEffect, useState } from 'react';

type Health = { status: string } | null;

/** The first screen: says plainly what is built so far and whether the server answers. */
export function App() {
  const [health, setHealth] = useState<Health>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    fetch('/api/health')
      .then((response) => response.json() as Promise<{ status: string }>)
      .then(setHealth)
      .catch(() => setFailed(true));
  }, []);

  return (
    <main
      style={{
        fontFamily: 'system-ui, sans-serif',
        maxWidth: 720,
        margin: '4rem auto',
        padding: '0 1rem',
      }}
    >
      <h1>Lattice Exchange</h1>
      <p>
        The trading screens are not built yet. The server, its API under <code>/api</code> and the
        real-time socket at <code>/ws</code> are being built first.
      </p>
      <p>
        Server status:{' '}
        <strong data-testid="server-status">
          {failed ? 'unreachable' : health ? health.status : 'checking…'}
        </strong>
      </p>
    </main>
  );
}
