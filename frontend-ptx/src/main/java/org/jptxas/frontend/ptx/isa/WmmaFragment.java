package org.jptxas.frontend.ptx.isa;

import java.util.List;

/**
 * The fragments {@code wmma.load} fills and {@code wmma.store} writes for m16n16k16, m32n8k16 and m8n32k16 with f16
 * or bf16 inputs (f16 or f32 accumulators) and m16n16k8 tf32: which matrix element each lane's register holds, in ptxas's
 * layout (the one {@link WmmaForm} describes): tiles of the {@code mma.m16n8k16} ({@code m16n8k8} for tf32)
 * fragments, A as 16-row tiles of 4 registers, B as 8-column tiles of 2 (tf32: 16 x 8 tiles of 2 and 8 x 8 tiles of
 * 2), C/D as 16 x 8 tiles (2 f16 registers, 4 f32) in row-major tile order. With u = lane / 4, v = lane % 4 and j a
 * register's index in its tile, a 16-bit register holds two elements e (the low half first), a 32-bit one one:
 * <ul>
 *   <li>f16/bf16 A: row u + 8 (j &amp; 1), column 2v + e + 8 (j / 2); an f16 A of m16n16k16 repeats its 4 registers;
 *   <li>f16/bf16 B (k by n): k 2v + e + 8j, n u; an f16 B repeats its registers up to 8;
 *   <li>f16 C/D: row u + 8j, column 2v + e; f32 C/D: row u + 8 (j / 2), column 2v + (j &amp; 1);
 *   <li>tf32 A (16 x 8): row u + 8 (j &amp; 1), column v + 4 (j / 2); tf32 B (8 x 16): k v + 4 (j &amp; 1), n u.
 * </ul>
 * m8n32k16 is the transpose of m32n8k16: its A holds the elements an m32n8k16 B would at the swapped coordinates, its
 * B those of an A, its C/D those of a C/D (so ptxas turns f16 pairs of a row-major C with MOVM).
 * Element (r, c) of a row-major matrix is at element r * stride + c from the address, of a column-major one at
 * c * stride + r; without a stride operand the stride is the matrix's width (row-major) or height (column-major).
 */
public record WmmaFragment(Role role, Element element, int m, int n, int k, boolean rowMajor, String space,
        boolean load) {
    /** Which operand of the multiply the fragment is. */
    public enum Role { A, B, ACCUMULATOR }

    /** The element type in memory and in the fragment. */
    public enum Element {
        F16(2), BF16(2), F32(4), TF32(4);

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

    /** Registers that hold distinct elements (an f16 A or B fragment repeats them up to 8). */
    public int distinctRegisters() {
        return rows() * columns() / 32 / elementsPerRegister();
    }

    /** Elements per register: two 16-bit halves, or one 32-bit element. */
    public int elementsPerRegister() {
        return element.bytes() == 2 ? 2 : 1;
    }

    /** The (row, column) of element {@code e} of register {@code reg} in lane {@code lane}. */
    public int[] position(int lane, int reg, int e) {
        int u = lane >>> 2, v = lane & 3, q = reg % distinctRegisters();
        if (m == 8) { // m8n32k16 is laid out as the transpose of m32n8k16, A and B trading places
            Role swapped = role == Role.A ? Role.B : role == Role.B ? Role.A : role;
            int[] p = new WmmaFragment(swapped, element, 32, 8, 16, rowMajor, space, load).position(lane, reg, e);
            return new int[] {p[1], p[0]};
        }
        if (element == Element.TF32) {
            return role == Role.B ? new int[] {v + 4 * (q & 1), u + 8 * (q >> 1)}
                    : new int[] {u + 8 * (q & 1), v + 4 * (q >> 1)};
        }
        return switch (role) {
            case A -> new int[] {16 * (q >> 2) + u + 8 * (q & 1), 2 * v + e + 8 * (q >> 1 & 1)};
            case B -> new int[] {2 * v + e + 8 * (q & 1), 8 * (q >> 1) + u};
            case ACCUMULATOR -> {
                int perTile = element == Element.F32 ? 4 : 2, t = q / perTile, j = q % perTile;
                int row = 16 * (t / (n / 8)) + u, col = 8 * (t % (n / 8)) + 2 * v;
                yield element == Element.F32 ? new int[] {row + 8 * (j >> 1), col + (j & 1)}
                        : new int[] {row + 8 * j, col + e};
            }
        };
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
                case "m16n16k16", "m16n16k8", "m32n8k16", "m8n32k16" -> shape = m;
                case "global", "shared", "shared::cta" -> space = m.startsWith("shared") ? "shared" : m;
                case "f16", "bf16", "f32", "tf32" -> type = m;
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
        int m = shape.equals("m32n8k16") ? 32 : shape.equals("m8n32k16") ? 8 : 16;
        int n = shape.equals("m32n8k16") ? 8 : shape.equals("m8n32k16") ? 32 : 16;
        int k = shape.equals("m16n16k8") ? 8 : 16;
        Element element;
        if (role == Role.ACCUMULATOR) {
            element = type.equals("f16") && k == 16 ? Element.F16 : type.equals("f32") ? Element.F32 : null;
        } else if (k == 8) {
            element = type.equals("tf32") ? Element.TF32 : null;
        } else {
            element = type.equals("f16") ? Element.F16 : type.equals("bf16") ? Element.BF16 : null;
        }
        return element == null ? null : new WmmaFragment(role, element, m, n, k, row, space, load);
    }
}
