package org.jptxas.frontend.ptx.isa;

import java.util.ArrayList;
import java.util.List;

/**
 * The {@code wmma.mma} forms jptxas compiles and interprets, with ptxas's fragment layout, which the PTX ISA leaves
 * unspecified and which the lowering and the interpreter must share: registers 0-3 of A are the A fragment of
 * {@code mma.m16n8k16} ({@code m16n8k8} for tf32); B's registers 0-1 are the B fragment of the left 8 columns and
 * 2-3 of the right 8; C and D hold the left half's accumulator fragment, then the right half's. Registers 4-7 of an
 * f16 A or B fragment are not read.
 */
public enum WmmaForm {
    /** {@code wmma.mma.sync.aligned.row.col.m16n16k16.f16.f16}. */
    M16N16K16_F16(16, false, false),
    /** {@code wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32}. */
    M16N16K16_F32(16, false, true),
    /** {@code wmma.mma.sync.aligned.m16n16k8.row.col.f32.tf32.tf32.f32}. */
    M16N16K8_TF32(8, true, true);

    private final int k;
    private final boolean tf32;
    private final boolean f32Accumulator;

    WmmaForm(int k, boolean tf32, boolean f32Accumulator) {
        this.k = k;
        this.tf32 = tf32;
        this.f32Accumulator = f32Accumulator;
    }

    /** The depth of the multiply (the tile is 16 x 16, done as two 16 x 8 halves). */
    public int k() {
        return k;
    }

    /** Whether A and B are tf32 (otherwise f16). */
    public boolean tf32Inputs() {
        return tf32;
    }

    /** Whether C and D are f32 (otherwise packed f16 pairs). */
    public boolean f32Accumulator() {
        return f32Accumulator;
    }

    /** Registers of one half's C or D fragment. */
    public int accumulatorRegistersPerHalf() {
        return f32Accumulator ? 4 : 2;
    }

    /** Registers of the A fragment operand (and of B's): eight for f16 (four read), four for tf32. */
    public int inputRegisters() {
        return tf32 ? 4 : 8;
    }

    /** The form named by an instruction's modifiers ({@code mma}, {@code sync}, ... after {@code wmma}), or null. */
    public static WmmaForm of(List<String> modifiers) {
        String shape = null;
        List<String> types = new ArrayList<>();
        List<String> layouts = new ArrayList<>();
        for (String m : modifiers) {
            switch (m) {
                case "mma", "sync", "aligned" -> { }
                case "row", "col" -> layouts.add(m);
                case "m16n16k16", "m16n16k8" -> shape = m;
                case "f16", "f32", "tf32" -> types.add(m);
                default -> {
                    return null;
                }
            }
        }
        if (shape == null || !layouts.equals(List.of("row", "col"))) {
            return null;
        }
        if (shape.equals("m16n16k8")) {
            return types.equals(List.of("f32", "tf32", "tf32", "f32")) ? M16N16K8_TF32 : null;
        }
        // mixed f16/f32 accumulators need a conversion ptxas adds; not done
        if (types.size() != 2 || !types.get(0).equals(types.get(1)) || types.contains("tf32")) {
            return null;
        }
        return types.get(0).equals("f32") ? M16N16K16_F32 : M16N16K16_F16;
    }
}
