#!/usr/bin/env node
// Runs the TypeScript CLI through tsx (an npm dependency; nothing is downloaded at run time).
import { register } from "tsx/esm/api";

register();
await import("../emulator/cli.ts");
