// The text an operator signs to open a session ("operator sign-in"). The signature is
// Ed25519 over the UTF-8 bytes of
//
//   torana-operator-session-v1 \n chain-id \n node-key \n audience \n operator-key \n challenge-id \n expires-at-ms
//
// The first line separates it from every other signed text of the project (transactions are signed over a
// hash of codec bytes, operator requests start with `torana-operator-v1`), so a signature made here cannot
// be replayed as anything else. Chain id and node key bind the session to one node (a token is useless on
// another); the audience line names what the signature is for (`operator-session`); the challenge id is
// random and single-use; the expiry is the challenge's (60 s by default), not the session's.
// The node builds the text (routes.ts) and verifies the answer (sessions.ts); the SDK parses it before
// signing (the operator module's sdk.ts) and refuses a text that is not one of these or not meant for its key.

export const OPERATOR_SESSION_TAG = 'torana-operator-session-v1';
export const OPERATOR_SESSION_AUDIENCE = 'operator-session';

export interface ChallengeParts {
  chainId: string;
  /** The node's public key text (`peer_id` in `/v1/consensus/keys`). */
  nodeKey: string;
  /** The operator's public key text (`ed0120…`). */
  operatorKey: string;
  challengeId: string;
  expiresAtMs: number;
}

export function challengeText(p: ChallengeParts): string {
  return [
    OPERATOR_SESSION_TAG,
    p.chainId,
    p.nodeKey,
    OPERATOR_SESSION_AUDIENCE,
    p.operatorKey,
    p.challengeId,
    String(p.expiresAtMs),
  ].join('\n');
}

const LINE = /^[\x20-\x7e]{1,256}$/;

/** The parts of a challenge text, or undefined when it is not one (tag, audience, line count, charset). */
export function parseChallengeText(text: string): ChallengeParts | undefined {
  const lines = text.split('\n');
  if (lines.length !== 7 || !lines.every((l) => LINE.test(l))) return undefined;
  const [tag, chainId, nodeKey, audience, operatorKey, challengeId, expires] = lines as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  if (tag !== OPERATOR_SESSION_TAG || audience !== OPERATOR_SESSION_AUDIENCE) return undefined;
  if (!/^[0-9]{1,15}$/.test(expires)) return undefined;
  return { chainId, nodeKey, operatorKey, challengeId, expiresAtMs: Number(expires) };
}
