#!/usr/bin/env node
// `npx emulator`. An installed package ships only the compiled dist/ (no sources, no scripts/) and
// runs it. In a checkout dist/ runs only while it is up to date with the sources (npm install
// builds it); after an edit the sources run through tsx until the next build, so an edited file
// is never shadowed by an old build. Nothing is downloaded at run time.
import { existsSync } from "node:fs";

const checkout = existsSync(new URL("../scripts/dist-state.mjs", import.meta.url));
if (!checkout) {
  await import("../dist/cli/main.js");
} else {
  const { distIsFresh } = await import("../scripts/dist-state.mjs");
  if (!process.env.EMULATOR_FROM_SOURCE && distIsFresh()) {
    await import("../dist/cli/main.js");
  } else {
    const { register } = await import("tsx/esm/api");
    register();
    await import("../cli/main.ts");
  }
}
