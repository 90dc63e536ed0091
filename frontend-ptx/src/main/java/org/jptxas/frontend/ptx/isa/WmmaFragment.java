package org.jptxas.frontend.ptx.isa;

import java.util.List;

/**
 * The fragments {@code wmma.load} fills and {@code wmma.store} writes: m16n16k16, m32n8k16 and m8n32k16 with f16,
 * bf16, s8 or u8 inputs (f16, f32 or s32 accumulators), m16n16k8 tf32, m8n8k4 f64, m8n8k32 s4/u4 and m8n8k128 b1:
 * which matrix element each lane's register holds, in ptxas's layout (the one {@link WmmaForm} describes): tiles of
 * the {@code mma.m16n8k16} ({@code m16n8k8} for tf32) fragments, A as 16-row tiles (4 registers of 16-bit elements,
 * 2 of 8-bit ones), B as 8-column tiles (2 registers of 16-bit, 1 of 8-bit; tf32: 16 x 8 tiles of 2 and 8 x 8 tiles
 * of 2), C/D as 16 x 8 tiles (2 f16 registers, 4 f32 or s32) in row-major tile order; the m8n8 shapes are the
 * fragments of the {@code mma} of the same shape. With u = lane / 4, v = lane % 4 and j a register's index in its
 * tile, a register holds 32 / bits elements e (the lowest bits first; an f64 register one):
 * <ul>
 *   <li>f16/bf16 A: row u + 8 (j &amp; 1), column 2v + e + 8 (j / 2); an f16 A of m16n16k16 repeats its 4 registers;
 *   <li>f16/bf16 B (k by n): k 2v + e + 8j, n u; an f16 B repeats its registers up to 8;
 *   <li>s8/u8 A: row u + 8j, column 4v + e; B: k 4v + e, n u;
 *   <li>f16 C/D: row u + 8j, column 2v + e; f32/s32 C/D: row u + 8 (j / 2), column 2v + (j &amp; 1);
 *   <li>tf32 A (16 x 8): row u + 8 (j &amp; 1), column v + 4 (j / 2); tf32 B (8 x 16): k v + 4 (j &amp; 1), n u;
 *   <li>f64 A: row u, column v; B: k v, n u; s4/u4 and b1 A: row u, column (32 / bits) v + e; B: k the same, n u;
 *       every m8n8 C/D (f64 or s32): row u, column 2v + j.
 * </ul>
 * m8n32k16 is the transpose of m32n8k16: its A holds the elements an m32n8k16 B would at the swapped coordinates, its
 * B those of an A, its C/D those of a C/D (so ptxas turns f16 pairs of a row-major C with MOVM).
 * Element (r, c) of a row-major matrix is at element r * stride + c from the address, of a column-major one at
 * c * stride + r; without a stride operand the stride is the matrix's width (row-major) or height (column-major).
 * ptxas reads sub-byte rows (s4/u4 A row-major, B column-major, b1 the same) as whole 32-bit words: their stride is
 * rounded down to a multiple of 32 bits.
 */
public record WmmaFragment(Role role, Element element, int m, int n, int k, boolean rowMajor, String space,
        boolean load) {
    /** Which operand of the multiply the fragment is. */
    public enum Role { A, B, ACCUMULATOR }

    /** The element type in memory and in the fragment. */
    public enum Element {
        F16(16), BF16(16), F32(32), TF32(32), S32(32), F64(64), S8(8), U8(8), S4(4), U4(4), B1(1);

        private final int bits;

        Element(int bits) {
            this.bits = bits;
        }

        /** Bits of one element. */
        public int bits() {
            return bits;
        }

        /** Bytes of one element, 1 for the sub-byte ones (which are read and written a register at a time). */
        public int bytes() {
            return Math.max(1, bits / 8);
        }
    }

    /** Rows of the matrix in memory (m for A and C, k for B). */
    public int rows() {
        return role == Role.B ? k : m;
    }

    /** Columns of the matrix in memory (k for A, n for B and C). */
    public int columns() {
        return role == Role.A ? k : n;
    }

    /** The stride when the instruction names none: the width of a row-major matrix, the height of a column-major one. */
    public int defaultStride() {
        return rowMajor ? columns() : rows();
    }

    /** Registers of the PTX operand. */
    public int registers() {
        return element == Element.F16 && role != Role.ACCUMULATOR ? 8 : distinctRegisters();
    }

    /** Whether the PTX registers are 64-bit ({@code .f64}). */
    public boolean wideRegisters() {
        return element == Element.F64;
    }

    /** Registers that hold distinct elements (an f16 A or B fragment repeats them up to 8). */
    public int distinctRegisters() {
        return rows() * columns() / 32 / elementsPerRegister();
    }

    /** Elements per register: 32 / bits (one f64 element in its 64-bit register). */
    public int elementsPerRegister() {
        return Math.max(1, 32 / element.bits());
    }

    /** The (row, column) of element {@code e} of register {@code reg} in lane {@code lane}. */
    public int[] position(int lane, int reg, int e) {
        int u = lane >>> 2, v = lane & 3, q = reg % distinctRegisters();
        if (m == 8 && n == 8) { // the mma.m8n8kK fragments
            return switch (role) {
                case A -> new int[] {u, elementsPerRegister() * v + e};
                case B -> new int[] {elementsPerRegister() * v + e, u};
                case ACCUMULATOR -> new int[] {u, 2 * v + q};
            };
        }
        if (m == 8) { // m8n32k16 is laid out as the transpose of m32n8k16, A and B trading places
            Role swapped = role == Role.A ? Role.B : role == Role.B ? Role.A : role;
            int[] p = new WmmaFragment(swapped, element, 32, 8, 16, rowMajor, space, load).position(lane, reg, e);
            return new int[] {p[1], p[0]};
        }
        if (element == Element.TF32) {
            return role == Role.B ? new int[] {v + 4 * (q & 1), u + 8 * (q >> 1)}
                    : new int[] {u + 8 * (q & 1), v + 4 * (q >> 1)};
        }
        if (element.bits() == 8) {
            return role == Role.A ? new int[] {16 * (q >> 1) + u + 8 * (q & 1), 4 * v + e}
                    : new int[] {4 * v + e, 8 * q + u};
        }
        return switch (role) {
            case A -> new int[] {16 * (q >> 2) + u + 8 * (q & 1), 2 * v + e + 8 * (q >> 1 & 1)};
            case B -> new int[] {2 * v + e + 8 * (q & 1), 8 * (q >> 1) + u};
            case ACCUMULATOR -> {
                boolean word = element.bits() == 32;
                int perTile = word ? 4 : 2, t = q / perTile, j = q % perTile;
                int row = 16 * (t / (n / 8)) + u, col = 8 * (t % (n / 8)) + 2 * v;
                yield word ? new int[] {row + 8 * (j >> 1), col + (j & 1)} : new int[] {row + 8 * j, col + e};
            }
        };
    }

    /** The element offset of element {@code e} of register {@code reg} in lane {@code lane} for {@code stride}. */
    public long offset(int lane, int reg, int e, long stride) {
        int[] p = position(lane, reg, e);
        long s = stride;
        if (element.bits() < 8) {
            s -= stride % elementsPerRegister();
        }
        return rowMajor ? p[0] * s + p[1] : p[1] * s + p[0];
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
                case "m16n16k16", "m16n16k8", "m32n8k16", "m8n32k16", "m8n8k4", "m8n8k32", "m8n8k128" -> shape = m;
                case "global", "shared", "shared::cta" -> space = m.startsWith("shared") ? "shared" : m;
                case "f16", "bf16", "f32", "tf32", "s32", "f64", "s8", "u8", "s4", "u4", "b1" -> type = m;
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
        int m = switch (shape) {
            case "m32n8k16" -> 32;
            case "m8n32k16", "m8n8k4", "m8n8k32", "m8n8k128" -> 8;
            default -> 16;
        };
        int n = shape.equals("m32n8k16") || shape.startsWith("m8n8") ? 8 : shape.equals("m8n32k16") ? 32 : 16;
        int k = switch (shape) {
            case "m16n16k8" -> 8;
            case "m8n8k4" -> 4;
            case "m8n8k32" -> 32;
            case "m8n8k128" -> 128;
            default -> 16;
        };
        Element element = element(role, type, k);
        if (element != null && element.bits() < 8 && rowMajor(role, row) == null) {
            return null; // sub-byte A is row-major only, B column-major only
        }
        return element == null ? null : new WmmaFragment(role, element, m, n, k, row, space, load);
    }

    /** The layout a sub-byte input may have (A row-major, B column-major), or null when {@code row} is not it. */
    private static Boolean rowMajor(Role role, boolean row) {
        return role == Role.A == row ? Boolean.valueOf(row) : null;
    }

    /** The element of a fragment of {@code role} and PTX {@code type} in a multiply of depth {@code k}, or null. */
    private static Element element(Role role, String type, int k) {
        if (role == Role.ACCUMULATOR) {
            return switch (type) {
                case "f16" -> k == 16 ? Element.F16 : null;
                case "f32" -> k == 16 || k == 8 ? Element.F32 : null;
                case "s32" -> k == 16 || k == 32 || k == 128 ? Element.S32 : null;
                case "f64" -> k == 4 ? Element.F64 : null;
                default -> null;
            };
        }
        return switch (k) {
            case 8 -> type.equals("tf32") ? Element.TF32 : null;
            case 4 -> type.equals("f64") ? Element.F64 : null;
            case 32 -> type.equals("s4") ? Element.S4 : type.equals("u4") ? Element.U4 : null;
            case 128 -> type.equals("b1") ? Element.B1 : null;
            default -> switch (type) {
                case "f16" -> Element.F16;
                case "bf16" -> Element.BF16;
                case "s8" -> Element.S8;
                case "u8" -> Element.U8;
                default -> null;
            };
        };
    }
}
