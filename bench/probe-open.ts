// Opens the stored snapshot of a state folder in a fresh process and reports time and memory as JSON.

import { datasetBytes } from '../engine/dataset/dataset-bytes.js';
import { openCurrentDataset } from '../loaders/edition/stored-editions.js';

const stateDir = process.argv[2] ?? './var';
const started = performance.now();
const dataset = await openCurrentDataset(stateDir);
const openSeconds = (performance.now() - started) / 1000;
if (dataset === null) throw new Error(`no snapshot stored under ${stateDir}`);
globalThis.gc?.(); // with --expose-gc: count what the Dataset keeps, not garbage of the load
const rssBytes = process.memoryUsage().rss;
const rawBytes = datasetBytes(dataset);
console.log(JSON.stringify({ version: dataset.version, openSeconds, rssBytes, rawBytes, ratio: rssBytes / rawBytes }));
