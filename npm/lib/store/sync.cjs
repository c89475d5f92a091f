"use strict";
/**
 * A synchronous call into the async store code, for the command line's synchronous loop
 * (docs/store.md § Store URLs): the calls run on a worker thread of their own
 * (lib/store/sync-worker.cjs), and this thread blocks (`Atomics.wait`) until the answer is
 * posted, then takes it off the port (`receiveMessageOnPort`). Loaded only when a path is a
 * store URL: the command line on files never starts the worker.
 */
const path = require("node:path");
const { MessageChannel, Worker, receiveMessageOnPort } = require("node:worker_threads");

/** How long one call may take before it is given up, in ms. */
const CALL_MS = 120_000;

let bridge = null;

/** The worker, started on first use (it does not keep the process alive). */
function start() {
  const { port1, port2 } = new MessageChannel();
  const signal = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(path.join(__dirname, "sync-worker.cjs"), {
    workerData: { port: port2, signal },
    transferList: [port2],
  });
  worker.unref();
  return { port: port1, signal, worker };
}

/** Runs `method(...args)` of lib/cli/store.cjs on the worker and returns what it resolves to. */
function callSync(method, ...args) {
  bridge ??= start();
  Atomics.store(bridge.signal, 0, 0);
  bridge.worker.postMessage({ method, args });
  if (Atomics.wait(bridge.signal, 0, 0, CALL_MS) === "timed-out") {
    throw new Error(`statecore: the store did not answer ${method} within ${CALL_MS / 1000} s`);
  }
  const { message } = receiveMessageOnPort(bridge.port);
  if (message.crashed) throw new Error(`statecore: the store's thread failed: ${message.crashed}`);
  return message.value;
}

module.exports = { callSync };
