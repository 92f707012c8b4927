import { registerChunk } from '../chunk-scripts.js';
import { wordProblems } from '../option-messages.js';

// The script tag build's chunk 'option-messages' (see chunk-scripts.ts).
registerChunk('option-messages', { wordProblems });
