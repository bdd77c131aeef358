#!/usr/bin/env node
// Assertion density per folder: always-on assertion calls per function, excluding tests.
// An assertion is a call of `assert`, `invariant` or `unreachable`, or a `throw new AssertionError`/
// `ConsensusInvariantError`. A function is a declaration, method, constructor, accessor, or a function
// or arrow function bound to a name (a variable or property); anonymous callbacks are not counted.
// Usage: node scripts/assert-density.mjs [folder ...]   (default: the core folders under src/)
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const root = new URL('..', import.meta.url).pathname;
const folders = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const targets = folders.length > 0 ? folders : ['consensus', 'pipeline', 'storage', 'codec', 'state'];
const ASSERT_CALLS = new Set(['assert', 'invariant', 'unreachable']);
const ASSERT_ERRORS = new Set(['AssertionError', 'ConsensusInvariantError']);

function files(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) files(p, out);
    else if (name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

function isNamedFunction(node) {
  if (
    ts.isFunctionDeclaration(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node)
  )
    return node.body !== undefined;
  if (ts.isArrowFunction(node) || ts.isFunctionExpression(node)) {
    const p = node.parent;
    return ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p);
  }
  return false;
}

function isAssertion(node) {
  if (ts.isCallExpression(node) && ts.isIdentifier(node.expression))
    return ASSERT_CALLS.has(node.expression.text);
  if (ts.isThrowStatement(node) && node.expression && ts.isNewExpression(node.expression)) {
    const e = node.expression.expression;
    return ts.isIdentifier(e) && ASSERT_ERRORS.has(e.text);
  }
  return false;
}

function measure(path) {
  const src = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
  let functions = 0;
  let assertions = 0;
  const visit = (node) => {
    if (isNamedFunction(node)) functions++;
    if (isAssertion(node)) assertions++;
    ts.forEachChild(node, visit);
  };
  visit(src);
  return { functions, assertions };
}

const rows = [];
for (const folder of targets) {
  let functions = 0;
  let assertions = 0;
  for (const f of files(join(root, 'src', folder))) {
    const m = measure(f);
    functions += m.functions;
    assertions += m.assertions;
  }
  rows.push({ folder, functions, assertions, perFunction: functions === 0 ? 0 : assertions / functions });
}
const pad = (s, n) => String(s).padEnd(n);
console.log(`${pad('folder', 12)}${pad('functions', 11)}${pad('assertions', 12)}per function`);
for (const r of rows)
  console.log(
    `${pad(r.folder, 12)}${pad(r.functions, 11)}${pad(r.assertions, 12)}${r.perFunction.toFixed(3)}`,
  );
if (process.argv.includes('--json')) console.log(JSON.stringify(rows));
