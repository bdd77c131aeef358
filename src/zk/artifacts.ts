// Where the circuit artifacts shipped with the package are: <package>/zk/artifacts/. Resolved from this
// file, which sits two folders below the package root in the sources (src/zk/), the build (dist/zk/) and
// the test runner's bundle of child-process entries (scripts/test-bundle.mjs keeps that depth), so every
// caller — at any depth of its own — reaches the same folder.

/** The URL of `<package>/zk/artifacts/<file>`. */
export function packagedArtifactUrl(file: string): URL {
  return new URL(`../../zk/artifacts/${file}`, import.meta.url);
}
