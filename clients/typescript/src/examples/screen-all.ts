// Example: the whole screen paged into an array (MDQ_URL, MDQ_KEY; prints the count and the first row).
import { Client, collect } from '../index.js';

const client = new Client({ baseUrl: process.env.MDQ_URL ?? 'http://127.0.0.1:8080', key: process.env.MDQ_KEY ?? '' });
const rows = await collect(
  client.screenRows('ashare', { bounds: { pe_ratio: { min: 0, max: 100 } }, sort: 'pe_ratio', limit: 2 }),
);
console.log(JSON.stringify({ count: rows.length, first: rows[0] }));
