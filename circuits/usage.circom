pragma circom 2.0.0;

// zk-roster-v1 private usage: the same membership as roster.circom, bound to one usage record.
// nullifier = Poseidon(secret, callField, 3, segment): action 3 with the segment folded in, so each
// segment of each member has its own nullifier. `record` is the field digest of the usage record
// (segment, durationMs, billedGas) that the node computes (src/zk/bind.ts); squaring it puts it in a
// constraint, so a proof cannot be replayed with another record. `sender` is the field digest of the
// transaction's authority, constrained the same way, so a copied proof fails for another account.
// Public signals, in snarkjs order: [nullifier, root, callField, segment, record, sender].

include "lib/merkle.circom";

template Usage(depth) {
    signal input root;
    signal input callField;
    signal input segment;
    signal input record;
    signal input sender;
    signal input secret;
    signal input pathElements[depth];
    signal input pathIndices[depth];
    signal output nullifier;

    signal recordSquare;
    recordSquare <== record * record;
    signal senderSquare;
    senderSquare <== sender * sender;

    // A segment is a u32 on the ledger.
    component segmentBits = Num2Bits(32);
    segmentBits.in <== segment;

    component commitment = Poseidon(1);
    commitment.inputs[0] <== secret;

    component tree = MerkleRoot(depth);
    tree.leaf <== commitment.out;
    for (var i = 0; i < depth; i++) {
        tree.pathElements[i] <== pathElements[i];
        tree.pathIndices[i] <== pathIndices[i];
    }
    root === tree.root;

    component n = Poseidon(4);
    n.inputs[0] <== secret;
    n.inputs[1] <== callField;
    n.inputs[2] <== 3;
    n.inputs[3] <== segment;
    nullifier <== n.out;
}

component main {public [root, callField, segment, record, sender]} = Usage(8);
