export { CONSOLE_FILES, ConsoleFiles, type ConsoleFile } from './assets.js';
export { bundleApp, MAPLIBRE_URL, type Bundle } from './bundle.js';
export { consolePage, type ConsoleSettings } from './page.js';
