"use strict";
/**
 * `statecore-js/fctry`: the fctry protocol (docs/fctry.md) over a project's `.fctry/` files, one
 * call per milestone: every helper comes from the table (lib/host/helpers.cjs); lib/generated/fctry.mjs and
 * lib/generated/fctry.d.ts (generated) list them.
 */
module.exports = require("./helpers.cjs").helpers("fctry");
