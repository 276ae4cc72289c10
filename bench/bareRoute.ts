// The bare route: a Fastify server with one POST route that does nothing but answer, the
// baseline of `npm run bench:e2e`. Run by the bench in a process of its own, like the real
// server; prints its URL on stdout.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.post('/api/v2/order', async (request, reply) => {
  const body = request.body as { pair: string; price: string; amount: string };
  return reply
    .status(201)
    .send({ order: { id: 1, market: body.pair, price: body.price, amount: body.amount } });
});
const address = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${address}\n`);
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
