import { registerChunk } from '../chunk-scripts.js';
import { simulate } from '../simulate.js';

// The script tag build's chunk 'simulate' (see chunk-scripts.ts).
registerChunk('simulate', { simulate });
