pragma circom 2.0.0;

// A Poseidon Merkle tree inclusion proof, the same tree src/zk/poseidon-tree.ts builds:
// node = Poseidon(left, right), an empty leaf is 0, and pathIndices[i] = 1 when the running
// node is the right child at level i (so the bits of the leaf index, least significant first).

include "../../node_modules/circomlib/circuits/poseidon.circom";
include "../../node_modules/circomlib/circuits/bitify.circom";

template MerkleRoot(depth) {
    signal input leaf;
    signal input pathElements[depth];
    signal input pathIndices[depth];
    signal output root;
    signal output index;

    component hashers[depth];
    signal nodes[depth + 1];
    signal left[depth];
    signal right[depth];
    nodes[0] <== leaf;
    for (var i = 0; i < depth; i++) {
        // Each index is a bit; the swap below is only sound for 0 or 1.
        pathIndices[i] * (1 - pathIndices[i]) === 0;
        left[i] <== nodes[i] + pathIndices[i] * (pathElements[i] - nodes[i]);
        right[i] <== pathElements[i] + nodes[i] - left[i];
        hashers[i] = Poseidon(2);
        hashers[i].inputs[0] <== left[i];
        hashers[i].inputs[1] <== right[i];
        nodes[i + 1] <== hashers[i].out;
    }
    root <== nodes[depth];

    component toNum = Bits2Num(depth);
    for (var i = 0; i < depth; i++) {
        toNum.in[i] <== pathIndices[i];
    }
    index <== toNum.out;
}
