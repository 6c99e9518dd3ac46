// The page's own controls come from Web Awesome 3 (a Lit-based component library): its default theme, and only the
// components the page uses, so the bundle carries no others. The elements (cards, sheet, dialog) never use it.
import '@awesome.me/webawesome/dist/styles/themes/default.css';
import '@awesome.me/webawesome/dist/components/button/button.js';
import '@awesome.me/webawesome/dist/components/callout/callout.js';
