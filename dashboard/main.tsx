import { render } from 'preact';
import { App } from './app.js';
import './styles/base.css';
import './styles/content.css';
import './styles/overview-pos.css';

render(<App />, document.getElementById('app') as HTMLElement);
