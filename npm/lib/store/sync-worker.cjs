"use strict";
// The worker thread of lib/store/sync.cjs: runs each call of lib/cli/store.cjs it is sent,
// posts the answer on the port it was given and wakes the waiting thread.
const { parentPort, workerData } = require("node:worker_threads");
const cliStore = require("../cli/store.cjs");

const { port, signal } = workerData;

parentPort.on("message", async ({ method, args }) => {
  let answer;
  try {
    answer = { value: await cliStore[method](...args) };
  } catch (error) {
    answer = { crashed: String(error?.stack ?? error) };
  }
  port.postMessage(answer);
  Atomics.store(signal, 0, 1);
  Atomics.notify(signal, 0);
});
