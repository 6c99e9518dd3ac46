// The page's own controls come from Web Awesome 3 (a Lit-based component library): its default theme, and only the
// components the page uses, so the bundle carries no others. The elements (cards, sheet, dialog) never use it.
import '@awesome.me/webawesome/dist/styles/themes/default.css';

import '@awesome.me/webawesome/dist/components/button/button.js';
import '@awesome.me/webawesome/dist/components/callout/callout.js';

// Web Awesome's dark palette applies under the `wa-dark` class, not the system setting: follow it, so its outlined
// buttons are not the light theme's grey on the page's dark background.
const dark = matchMedia('(prefers-color-scheme: dark)');
const followScheme = () => document.documentElement.classList.toggle('wa-dark', dark.matches);
followScheme();
dark.addEventListener('change', followScheme);
