export { main } from './main.js';
export { runCommand } from './commands/run.js';
