#!/usr/bin/env node
// Reads `validate.mjs --json` output for one file on stdin and prints the fixture the corpus
// test reads: the validator version, issue counts and every message's code, severity, JSON
// pointer and text (no timestamp, no asset info).
import fs from 'node:fs';

const SEVERITY = ['Error', 'Warning', 'Information', 'Hint'];
const [{ file, report }] = JSON.parse(fs.readFileSync(0, 'utf8'));
const issues = report.issues;
const fixture = {
  file,
  validatorVersion: report.validatorVersion,
  numErrors: issues.numErrors,
  numWarnings: issues.numWarnings,
  numInfos: issues.numInfos,
  numHints: issues.numHints,
  truncated: issues.truncated,
  messages: issues.messages.map((m) => ({
    code: m.code,
    severity: SEVERITY[m.severity] ?? String(m.severity),
    pointer: m.pointer ?? null,
    message: m.message,
  })),
};
console.log(JSON.stringify(fixture, null, 1));
