package org.jptxas.simulator.sass;

/** What the hardware does with a generic-address ATOM whose address falls in the shared or local window. */
final class GenericAtomics {
    private GenericAtomics() {}

    /**
     * Generic ATOM adds the shared and local windows have no instruction for (f16x2, bf16x2, f32, f64, 64-bit integer):
     * on such an address the hardware does nothing and clears ATOM's predicate result, and ptxas's code finishes the
     * add itself (a compare-and-swap loop on the shared window).
     */
    static boolean notPerformedInWindow(String kind, SassOp op) {
        return kind.equals("ADD") && (op.has("F16x2") || op.has("BF16x2") || op.has("F32") || op.has("FTZ")
                || op.has("F64") || op.has("64") || op.has("U64") || op.has("S64"));
    }

    /**
     * {@code ATOMS.CAST.SPIN{.64} Rd, [a], Rcmp, Rnew} (ptxas's shared-memory compare-and-swap loops): stores new when
     * the word equals cmp; Rd is 1 when it stored, else 0 (the loop retries until 1).
     */
    static void castSpin(SassMachine sm, SassOp op, SassMachine.Thread t, SassMachine.Warp w, SassOperand dst,
                         SassOperand.Mem m, SassOperand cmp, SassOperand next) {
        boolean wide = op.has("64");
        int size = wide ? 8 : 4;
        long a = sm.windows.sharedOffset(sm.windows.address(m, t, w, false));
        long old = sm.shared.load(a, size);
        long expected = wide ? sm.operands.read64(cmp, t, w) : Integer.toUnsignedLong(sm.operands.read(cmp, t, w));
        boolean stored = old == expected;
        if (stored) {
            sm.shared.store(a, size, wide ? sm.operands.read64(next, t, w) : Integer.toUnsignedLong(sm.operands.read(next, t, w)));
        }
        OperandAccess.writeR(t, dst, stored ? 1 : 0);
    }
}
