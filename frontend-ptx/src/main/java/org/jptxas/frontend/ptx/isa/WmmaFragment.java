package org.jptxas.frontend.ptx.isa;

import java.util.List;

/**
 * The fragments {@code wmma.load} fills and {@code wmma.store} writes for the {@link WmmaForm}s (m16n16k16 with f16
 * inputs and f16 or f32 accumulators, m16n16k8 tf32): which matrix element each lane's register holds, in ptxas's
 * layout (the one {@link WmmaForm} describes: the {@code mma.m16n8k16} / {@code m16n8k8} fragments, the 16-wide
 * matrices as two 8-wide halves). With u = lane / 4 and v = lane % 4, a 16-bit register holds two elements (the low
 * half first) and a 32-bit one one element:
 * <ul>
 *   <li>f16 A (16 x 16, registers 0-3; 4-7 repeat them): row u + 8 (q &amp; 1), column 2v + e + 8 (q / 2);
 *   <li>f16 B (16 x 16, k by n; 0-3, 4-7 repeat them): k 2v + e + 8 (q &amp; 1), n u + 8 (q / 2);
 *   <li>f16 C/D (4 registers): row u + 8 (q &amp; 1), column 2v + e + 8 (q / 2);
 *   <li>f32 C/D (8 registers): row u + 8 (q / 2 &amp; 1), column 2v + (q &amp; 1) + 8 (q / 4);
 *   <li>tf32 A (16 x 8, 4 registers): row u + 8 (q &amp; 1), column v + 4 (q / 2);
 *   <li>tf32 B (8 x 16, 4 registers): k v + 4 (q &amp; 1), n u + 8 (q / 2).
 * </ul>
 * Element (r, c) of a row-major matrix is at element r * stride + c from the address, of a column-major one at
 * c * stride + r; without a stride operand the stride is the matrix's width (row-major) or height (column-major).
 */
public record WmmaFragment(Role role, Element element, boolean rowMajor, String space, boolean load) {
    /** Which operand of the multiply the fragment is. */
    public enum Role { A, B, ACCUMULATOR }

    /** The element type in memory and in the fragment. */
    public enum Element {
        F16(2), F32(4), TF32(4);

        private final int bytes;

        Element(int bytes) {
            this.bytes = bytes;
        }

        public int bytes() {
            return bytes;
        }
    }

    /** Rows of the matrix in memory (m for A and C, k for B). */
    public int rows() {
        return role == Role.B && element == Element.TF32 ? 8 : 16;
    }

    /** Columns of the matrix in memory (k for A, n for B and C). */
    public int columns() {
        return role == Role.A && element == Element.TF32 ? 8 : 16;
    }

    /** The stride when the instruction names none: the width of a row-major matrix, the height of a column-major one. */
    public int defaultStride() {
        return rowMajor ? columns() : rows();
    }

    /** Registers of the PTX operand. */
    public int registers() {
        return element == Element.TF32 || element == Element.F16 && role == Role.ACCUMULATOR ? 4 : 8;
    }

    /** Registers that hold distinct elements (an f16 A or B fragment repeats its first four). */
    public int distinctRegisters() {
        return element == Element.F16 && role != Role.ACCUMULATOR ? 4 : registers();
    }

    /** Elements per register: two 16-bit halves, or one 32-bit element. */
    public int elementsPerRegister() {
        return element == Element.F16 ? 2 : 1;
    }

    /** The (row, column) of element {@code e} of register {@code reg} in lane {@code lane}. */
    public int[] position(int lane, int reg, int e) {
        int u = lane >>> 2, v = lane & 3, q = reg % distinctRegisters();
        if (element == Element.TF32) {
            return role == Role.B ? new int[] {v + 4 * (q & 1), u + 8 * (q >> 1)}
                    : new int[] {u + 8 * (q & 1), v + 4 * (q >> 1)};
        }
        if (element == Element.F32) {
            return new int[] {u + 8 * (q >> 1 & 1), 2 * v + (q & 1) + 8 * (q >> 2)};
        }
        return role == Role.B ? new int[] {2 * v + e + 8 * (q & 1), u + 8 * (q >> 1)}
                : new int[] {u + 8 * (q & 1), 2 * v + e + 8 * (q >> 1)};
    }

    /** The element offset of element {@code e} of register {@code reg} in lane {@code lane} for {@code stride}. */
    public long offset(int lane, int reg, int e, long stride) {
        int[] p = position(lane, reg, e);
        return rowMajor ? p[0] * stride + p[1] : p[1] * stride + p[0];
    }

    /**
     * The fragment of {@code wmma.load.{a,b,c}} or {@code wmma.store.d} with these modifiers (after {@code wmma}:
     * {@code load|store, a|b|c|d, sync, aligned, row|col, shape, [space], type}), or null when it is not one of
     * these forms.
     */
    public static WmmaFragment of(List<String> modifiers) {
        Boolean load = null, row = null;
        Role role = null;
        String shape = null, type = null, space = "";
        for (String m : modifiers) {
            switch (m) {
                case "load" -> load = true;
                case "store" -> load = false;
                case "a" -> role = Role.A;
                case "b" -> role = Role.B;
                case "c", "d" -> role = Role.ACCUMULATOR;
                case "sync", "aligned" -> { }
                case "row" -> row = true;
                case "col" -> row = false;
                case "m16n16k16", "m16n16k8" -> shape = m;
                case "global", "shared", "shared::cta" -> space = m.startsWith("shared") ? "shared" : m;
                case "f16", "f32", "tf32" -> type = m;
                default -> {
                    return null;
                }
            }
        }
        if (load == null || row == null || role == null || shape == null || type == null
                || load != modifiers.contains(role == Role.ACCUMULATOR ? "c" : role == Role.A ? "a" : "b")
                || !load && !modifiers.contains("d")) {
            return null;
        }
        boolean k8 = shape.equals("m16n16k8");
        Element element;
        if (role == Role.ACCUMULATOR) {
            element = type.equals("f16") && !k8 ? Element.F16 : type.equals("f32") ? Element.F32 : null;
        } else {
            element = k8 ? (type.equals("tf32") ? Element.TF32 : null) : type.equals("f16") ? Element.F16 : null;
        }
        return element == null ? null : new WmmaFragment(role, element, row, space, load);
    }
}
