pragma circom 2.0.0;

// Shielded note spend (docs/conference.md "Shielded fee"). A note is
// commitment = Poseidon(value, ownerHash), ownerHash = Poseidon(secret, blinding), a leaf of the
// pool tree (depth 16). The proof shows the note is in the tree under `root`, publishes its
// nullifier Poseidon(secret, blinding, leafIndex), checks value >= fee with 64-bit range checks,
// and publishes the change note Poseidon(value - fee, Poseidon(changeSecret, changeBlinding)).
// `bind` is the field digest of the call and action the fee pays for (src/zk/bind.ts); squaring it
// puts it in a constraint, so the spend cannot be replayed elsewhere.
// Public signals, in snarkjs order: [nullifier, changeCommitment, root, fee, bind].

include "lib/merkle.circom";

template NoteSpend(depth) {
    signal input root;
    signal input fee;
    signal input bind;
    signal input value;
    signal input secret;
    signal input blinding;
    signal input pathElements[depth];
    signal input pathIndices[depth];
    signal input changeSecret;
    signal input changeBlinding;
    signal output nullifier;
    signal output changeCommitment;

    signal bindSquare;
    bindSquare <== bind * bind;

    // value, fee and value - fee all in [0, 2^64): then value >= fee, with no wrap-around mod r.
    component valueBits = Num2Bits(64);
    valueBits.in <== value;
    component feeBits = Num2Bits(64);
    feeBits.in <== fee;
    component changeBits = Num2Bits(64);
    changeBits.in <== value - fee;

    component owner = Poseidon(2);
    owner.inputs[0] <== secret;
    owner.inputs[1] <== blinding;
    component note = Poseidon(2);
    note.inputs[0] <== value;
    note.inputs[1] <== owner.out;

    component tree = MerkleRoot(depth);
    tree.leaf <== note.out;
    for (var i = 0; i < depth; i++) {
        tree.pathElements[i] <== pathElements[i];
        tree.pathIndices[i] <== pathIndices[i];
    }
    root === tree.root;

    component n = Poseidon(3);
    n.inputs[0] <== secret;
    n.inputs[1] <== blinding;
    n.inputs[2] <== tree.index;
    nullifier <== n.out;

    component changeOwner = Poseidon(2);
    changeOwner.inputs[0] <== changeSecret;
    changeOwner.inputs[1] <== changeBlinding;
    component change = Poseidon(2);
    change.inputs[0] <== value - fee;
    change.inputs[1] <== changeOwner.out;
    changeCommitment <== change.out;
}

component main {public [root, fee, bind]} = NoteSpend(16);
