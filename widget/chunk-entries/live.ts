import { registerChunk } from '../chunk-scripts.js';
import { followPayment } from '../live.js';

// The script tag build's chunk 'live' (see chunk-scripts.ts).
registerChunk('live', { followPayment });
