import { registerChunk } from '../chunk-scripts.js';
import { Closing } from '../components/screens.js';

// The script tag build's chunk 'screens' (see chunk-scripts.ts).
registerChunk('screens', { Closing });
