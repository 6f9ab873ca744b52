export { recordDemoTurns } from '../../src/demo/trace-page-demo.js';
