package org.jptxas.isel.codegen;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jptxas.sass.SassOp;
import org.jptxas.sass.SlotKind;

/**
 * Instructions that start no row of their own in ptxas's {@code .debug_line}, so that where jptxas emits them they
 * continue the row before:
 * <ul>
 * <li>a texture fetch {@code TEX} ({@code tex.2d.v4.u32.f32}) with the code of its PTX instruction (from sm_90 on
 * the ULDC/UMOV of the texture's handle): ptxas 13 writes it without a line of its own, so a
 * source line whose code is the fetch and the copies of its coordinates ({@code mov.f32 %f41, %f33}) has no row (all 31
 * TEX of the corpus's SobelFilter, mummergpu, sad4, crys_kernel and volumeRender, sm_80 and sm_90); a {@code TLD}
 * ({@code tex.1d} with integer coordinates, spmv) keeps its line;</li>
 * <li>a local store in a function that never reads its local memory back: no {@code LDL}, and the stack pointer
 * {@code R1} read only as such a store's base or to move itself (the frame's allocation), so no address into the
 * frame escapes. The stores are dead, and ptxas removes them when it optimizes (mummergpu's {@code st.local} into a
 * {@code node} array nothing loads: none left from -O1 on; -O0 and -g keep the 16 stores with their lines).</li>
 * </ul>
 * Reads the typed instructions.
 */
final class RowlessInstructions {
    private static final int STACK_POINTER = 1;

    /** The PTX lines of the function's texture fetches. */
    private final Set<Integer> fetchLines = new HashSet<>();
    private final boolean deadStores;

    private RowlessInstructions(List<CodeLine> code, boolean optimized) {
        // checked on optimized code only: jptxas's unoptimized code (-O0, -g) keeps its rows as they are
        for (CodeLine line : code) {
            if (optimized && line.mnemonic().equals("TEX") && line.ptxLine() > 0) {
                fetchLines.add(line.ptxLine());
            }
        }
        deadStores = optimized && deadLocalStores(code);
    }

    /** The rowless instructions of one function's code, of an optimized compilation or not (-O0, -g). */
    static RowlessInstructions of(List<CodeLine> code, boolean optimized) {
        return new RowlessInstructions(code, optimized);
    }

    /**
     * Whether the line continues the row before: code of a texture fetch's PTX instruction (the TEX and, from sm_90
     * on, the ULDC/UMOV of the texture's handle), or a dead local store.
     */
    boolean rowless(CodeLine line) {
        return line.ptxLine() > 0 && fetchLines.contains(line.ptxLine())
                || deadStores && line.mnemonic().equals("STL");
    }

    /** Whether the local stores of the function's code are all dead (see the class comment). */
    private static boolean deadLocalStores(List<CodeLine> code) {
        boolean stores = false;
        for (CodeLine line : code) {
            SassOp op = line.op();
            String mnemonic = line.mnemonic();
            if (mnemonic.equals("LDL")) {
                return false;
            }
            boolean store = mnemonic.equals("STL");
            stores |= store;
            // the frame's allocation (IADD3 R1, R1, -0x10, RZ) moves the pointer without letting it escape
            if (ShiftIntoAddLines.reads(op, STACK_POINTER) && !(store && storesFromStackPointer(op))
                    && !(!store && op.register(0, SlotKind.GPR) == STACK_POINTER)) {
                return false;
            }
        }
        return stores;
    }

    /** {@code STL [R1+0xc], R15}: a local store addressed from the stack pointer, its value not the pointer. */
    private static boolean storesFromStackPointer(SassOp op) {
        return op.operandCount() == 2 && op.register(1, SlotKind.GPR) != STACK_POINTER;
    }
}
