#!/usr/bin/env node
// The `dts` command. The TypeScript sources are compiled to out/ by `npm install` (prepare).
import("../out/cli/main.js").catch((error) => {
  if (error && error.code === "ERR_MODULE_NOT_FOUND" && String(error.message).includes("out/cli/main.js")) {
    console.error("dts: the project is not compiled yet; run `npm install` (or `npm run compile`) first.");
    process.exit(1);
  }
  throw error;
});
