// How a route's description words the names it takes in place of ids (model/id-names.ts): the words
// are the installed naming module's (its `IdNaming.words`, passed on by src/modules/load.ts at start-up,
// as the event scopes are), so the gateway and the route families name no module; without a naming
// module the descriptions speak of ids alone. Route schemas are built after start-up (when a family's
// routes are made), so they read the words installed.

import type { IdNameWords } from '../model/id-names.js';

let installed: IdNameWords | undefined;

/** Installs the words of the naming module (the first in registry order that gives names), or none. */
export function installIdNameWords(words: IdNameWords | undefined): void {
  installed = words;
}

/** The installed words, or undefined when no module gives names in place of ids. */
export function idNameWords(): IdNameWords | undefined {
  return installed;
}

/** `what` ("account id"), followed by " or <name>" when names are taken in its place. */
export function idOrName(what: string): string {
  return installed === undefined ? what : `${what} or ${installed.one}`;
}

/** `text` with `fill(words)` appended when names are taken in place of ids, else `text` alone. */
export function withNames(text: string, fill: (w: IdNameWords) => string): string {
  return installed === undefined ? text : `${text}${fill(installed)}`;
}
