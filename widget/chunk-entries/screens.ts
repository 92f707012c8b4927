import { registerChunk } from '../chunk-scripts.js';
import { Expired, Failure, Success } from '../components/screens.js';

// The script tag build's chunk 'screens' (see chunk-scripts.ts).
registerChunk('screens', { Expired, Failure, Success });
