import { registerChunk } from '../chunk-scripts.js';
import { Picker } from '../components/picker.js';

// The script tag build's chunk 'picker' (see chunk-scripts.ts).
registerChunk('picker', { Picker });
