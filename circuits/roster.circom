pragma circom 2.0.0;

// zk-roster-v1 membership (docs/conference.md "Private rosters"): the prover knows `secret` whose
// commitment Poseidon(secret) is a leaf of the call's roster tree (depth 8, 256 invitations), and
// publishes nullifier = Poseidon(secret, callField, action), so one member acts once per call and
// action (1 = join, 2 = leave) without saying which leaf is theirs. It also publishes
// joinNullifier = Poseidon(secret, callField, 1), the member's join nullifier: a leave must name a
// join already recorded for the call (so a leave without a join cannot lower the active count).
// `sender` is the field digest of the transaction's authority (src/zk/bind.ts); squaring it puts it
// in a constraint, so a proof copied into another account's transaction does not verify.
// Public signals, in snarkjs order: [nullifier, joinNullifier, root, callField, action, sender].

include "lib/merkle.circom";

template Roster(depth) {
    signal input root;
    signal input callField;
    signal input action;
    signal input sender;
    signal input secret;
    signal input pathElements[depth];
    signal input pathIndices[depth];
    signal output nullifier;
    signal output joinNullifier;

    signal senderSquare;
    senderSquare <== sender * sender;

    // Only join (1) and leave (2) are roster actions; usage has its own circuit.
    (action - 1) * (action - 2) === 0;

    component commitment = Poseidon(1);
    commitment.inputs[0] <== secret;

    component tree = MerkleRoot(depth);
    tree.leaf <== commitment.out;
    for (var i = 0; i < depth; i++) {
        tree.pathElements[i] <== pathElements[i];
        tree.pathIndices[i] <== pathIndices[i];
    }
    root === tree.root;

    component n = Poseidon(3);
    n.inputs[0] <== secret;
    n.inputs[1] <== callField;
    n.inputs[2] <== action;
    nullifier <== n.out;

    component j = Poseidon(3);
    j.inputs[0] <== secret;
    j.inputs[1] <== callField;
    j.inputs[2] <== 1;
    joinNullifier <== j.out;
}

component main {public [root, callField, action, sender]} = Roster(8);
