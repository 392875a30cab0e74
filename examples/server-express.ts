// tollgate in front of an Express 5 app. Run: npx tsx examples/server-express.ts
import express from 'express';
import { tollgate } from 'tollgate/node';
import { lookupToken } from './demo-tokens.js';

const app = express();
app.use(tollgate({ lookupToken }));
app.get('/repos/:owner/:repo/issues/events', (_req, res) => {
  res.json([]);
});
app.listen(Number(process.env.PORT ?? 3000), () => console.log('listening on http://localhost:3000'));
