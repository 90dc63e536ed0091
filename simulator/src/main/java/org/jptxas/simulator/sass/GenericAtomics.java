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
}
