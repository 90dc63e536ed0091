package org.jptxas.frontend.ptx.isa;

import java.util.ArrayList;
import java.util.List;

/**
 * The {@code wmma.mma} forms jptxas compiles and interprets, with ptxas's fragment layout, which the PTX ISA leaves
 * unspecified and which the lowering and the interpreter must share: registers 0-3 of A are the A fragment of
 * {@code mma.m16n8k16} ({@code m16n8k8} for tf32); B's registers 0-1 are the B fragment of the left 8 columns and
 * 2-3 of the right 8; C and D hold the left half's accumulator fragment, then the right half's. Registers 4-7 of an
 * f16 A or B fragment are not read. The A and B layouts a {@code wmma.mma} names do not change it: they are the layouts
 * the fragments were loaded with.
 */
public enum WmmaForm {
    /** {@code wmma.mma.sync.aligned.ALAYOUT.BLAYOUT.m16n16k16.f16.f16}. */
    M16N16K16_F16(16, false, false, true, true),
    /** {@code wmma.mma.sync.aligned.ALAYOUT.BLAYOUT.m16n16k16.f32.f32}. */
    M16N16K16_F32(16, false, true, false, false),
    /** {@code ....m16n16k16.f16.f32}: f32 C, f16 D; accumulated in f32, D rounded to f16 pairs at the end. */
    M16N16K16_F16_FROM_F32(16, false, true, false, true),
    /** {@code ....m16n16k16.f32.f16}: f16 C widened to f32 first, f32 D. */
    M16N16K16_F32_FROM_F16(16, false, true, true, false),
    /** {@code wmma.mma.sync.aligned.ALAYOUT.BLAYOUT.m16n16k8.f32.tf32.tf32.f32}. */
    M16N16K8_TF32(8, true, true, false, false);

    private final int k;
    private final boolean tf32;
    private final boolean f32Accumulator;
    private final boolean f16C;
    private final boolean f16D;

    WmmaForm(int k, boolean tf32, boolean f32Accumulator, boolean f16C, boolean f16D) {
        this.k = k;
        this.tf32 = tf32;
        this.f32Accumulator = f32Accumulator;
        this.f16C = f16C;
        this.f16D = f16D;
    }

    /** The depth of the multiply (the tile is 16 x 16, done as two 16 x 8 halves). */
    public int k() {
        return k;
    }

    /** Whether A and B are tf32 (otherwise f16). */
    public boolean tf32Inputs() {
        return tf32;
    }

    /** Whether the multiplies accumulate in f32 (otherwise in packed f16 pairs). */
    public boolean f32Accumulator() {
        return f32Accumulator;
    }

    /** Whether the C operand is packed f16 pairs (otherwise f32). */
    public boolean f16C() {
        return f16C;
    }

    /** Whether the D operand is packed f16 pairs (otherwise f32). */
    public boolean f16D() {
        return f16D;
    }

    /** Registers of one half's accumulator in the multiplies. */
    public int accumulatorRegistersPerHalf() {
        return f32Accumulator ? 4 : 2;
    }

    /** Registers of the C operand (both halves). */
    public int cRegisters() {
        return f16C ? 4 : 8;
    }

    /** Registers of the D operand (both halves). */
    public int dRegisters() {
        return f16D ? 4 : 8;
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
        // the layouts name how wmma.load laid the fragments out; the multiply of the fragments is the same for all
        // four (ptxas 13 writes the same SASS for row.row, row.col, col.row and col.col)
        if (shape == null || layouts.size() != 2) {
            return null;
        }
        if (shape.equals("m16n16k8")) {
            return types.equals(List.of("f32", "tf32", "tf32", "f32")) ? M16N16K8_TF32 : null;
        }
        // D's type, then C's
        return switch (String.join(".", types)) {
            case "f16.f16" -> M16N16K16_F16;
            case "f32.f32" -> M16N16K16_F32;
            case "f16.f32" -> M16N16K16_F16_FROM_F32;
            case "f32.f16" -> M16N16K16_F32_FROM_F16;
            default -> null;
        };
    }
}
