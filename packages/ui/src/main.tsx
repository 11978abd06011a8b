import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
// The shared style sheet first, so each page's own sheet can build on it.
import './styles/index.css';
import { App } from './app.js';
import { applyStoredTheme } from './layout/theme.js';

applyStoredTheme();

const root = document.getElementById('root');
if (root !== null) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
