export { recordDemoTurns } from '../../demo/trace-page-demo.js';
