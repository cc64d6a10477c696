import { initMoyoNode } from '../../src/node/moyo.ts';

initMoyoNode();
