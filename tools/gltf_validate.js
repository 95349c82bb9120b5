#!/usr/bin/env node
// Run the Khronos glTF validator (node_modules/gltf-validator) on one .glb or .gltf file.
//
//   node tools/gltf_validate.js FILE [--json]
//
// Prints one line per issue ("error: CODE at POINTER: message") and a summary line, or the
// validator's whole report as JSON with --json. Exit status: 0 no errors, 1 at least one
// error (warnings, infos and hints do not fail), 2 the file or the validator could not be
// used. External resources of a .gltf are loaded from the file's folder so that they are
// validated too.
"use strict";

const fs = require("fs");
const path = require("path");

function usage() {
  process.stderr.write("usage: node tools/gltf_validate.js FILE [--json]\n");
  process.exit(2);
}

const args = process.argv.slice(2);
const asJson = args.includes("--json");
const files = args.filter((a) => a !== "--json");
if (files.length !== 1) usage();
const file = files[0];

let validator;
try {
  validator = require(path.join(__dirname, "..", "node_modules", "gltf-validator"));
} catch (err) {
  process.stderr.write(`gltf_validate: cannot load node_modules/gltf-validator: ${err.message}\n`);
  process.exit(2);
}

let data;
try {
  data = fs.readFileSync(file);
} catch (err) {
  process.stderr.write(`gltf_validate: ${file}: ${err.message}\n`);
  process.exit(2);
}

const SEVERITY = ["error", "warning", "info", "hint"];

validator
  .validateBytes(new Uint8Array(data), {
    uri: path.basename(file),
    maxIssues: 0, // unlimited: a test must see every error, not the first few
    writeTimestamp: false,
    externalResourceFunction: (uri) =>
      new Promise((resolve, reject) => {
        fs.readFile(path.resolve(path.dirname(file), decodeURIComponent(uri)), (err, buf) =>
          err ? reject(err.toString()) : resolve(new Uint8Array(buf)));
      }),
  })
  .then(
    (report) => {
      const issues = report.issues;
      if (asJson) {
        process.stdout.write(JSON.stringify(report, null, 2) + "\n");
      } else {
        for (const m of issues.messages) {
          const where = m.pointer ? ` at ${m.pointer}` : "";
          process.stdout.write(`${file}: ${SEVERITY[m.severity] || m.severity}: ${m.code}${where}: ${m.message}\n`);
        }
        process.stdout.write(
          `${file}: ${issues.numErrors} error(s), ${issues.numWarnings} warning(s), ` +
            `${issues.numInfos} info(s), ${issues.numHints} hint(s) (glTF validator ${report.validatorVersion})\n`);
      }
      process.exit(issues.numErrors > 0 ? 1 : 0);
    },
    (err) => {
      // A rejected promise: the bytes are neither glTF JSON nor GLB.
      process.stderr.write(`gltf_validate: ${file}: ${err}\n`);
      process.exit(2);
    });
