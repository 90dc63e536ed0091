package org.jptxas.simulator.sass;

import java.util.List;
import org.jptxas.simulator.exec.QuadPairMma;
import org.jptxas.simulator.exec.WarpMma;
import org.jptxas.simulator.exec.WarpMma.Spec;
import org.jptxas.simulator.exec.WarpMma.Type;
import org.jptxas.simulator.sass.SassOperand.Reg;

/**
 * The warp-level matrix multiplies {@code HMMA}, {@code IMMA} and {@code DMMA} ({@code OP.SHAPE.TYPES Rd, Ra, Rb,
 * Rc}): each operand is a run of consecutive registers of every lane (RZ reads zeros), in the fragment layout and
 * with the numerics of {@link WarpMma}. The shape is named {@code MNK} ({@code 16816} = m16n8k16, {@code 884},
 * {@code 8x8x4}; Turing's quad-pair {@code 884} with a {@code STEPn}, see {@link QuadPairMma}); the type modifiers
 * give the accumulator ({@code F16}, {@code F32}) and the inputs ({@code BF16},
 * {@code TF32}, {@code S8.S8}, {@code S8.U8}, ...; none: f16). A sparse multiply ({@code .SP} first, then the full
 * k's shape) reads half of A, then a metadata register and a selector after C ({@link
 * org.jptxas.simulator.exec.SparseA}).
 */
final class MatrixMultiplyOps {
    private MatrixMultiplyOps() {}

    /** The multiply {@code op} performs, or null when the emulator does not implement that form. */
    static Spec spec(SassOp op) {
        List<String> m = op.modifiers();
        if (sparse(op)) {
            return sparseSpec(op.opcode(), m.subList(1, m.size()));
        }
        if (m.isEmpty() || op.operands().size() != 4) {
            return null;
        }
        String shape = m.get(0);
        return switch (op.opcode()) {
            case "HMMA" -> hmma(shape, m.subList(1, m.size()));
            case "IMMA" -> imma(shape, m.subList(1, m.size()));
            case "BMMA" -> bmma(shape, m.subList(1, m.size()));
            case "QMMA" -> qmma(shape, m.subList(1, m.size()));
            case "DMMA" -> m.size() != 1 ? null : switch (shape) {
                case "884", "8x8x4" -> new Spec(8, 8, 4, Type.F64, Type.F64, Type.F64, false);
                case "16x8x4", "16x8x8", "16x8x16" ->
                        new Spec(16, 8, Integer.parseInt(shape.substring(5)), Type.F64, Type.F64, Type.F64, false);
                default -> null;
            };
            default -> null;
        };
    }

    /** Whether {@code op} is a sparse multiply ({@code OP.SP.SHAPE.TYPES Rd, Ra, Rb, Rc, Re, selector}). */
    private static boolean sparse(SassOp op) {
        return !op.modifiers().isEmpty() && op.modifiers().get(0).equals("SP") && op.operands().size() == 6
                && op.operands().get(5) instanceof SassOperand.Imm;
    }

    /**
     * The dense multiply a sparse one ({@code HMMA.SP}, {@code IMMA.SP}, {@code QMMA.SP}) names, of the full k:
     * HMMA.SP.16816/16832 f16 and bf16, 1688/16816 tf32; IMMA.SP.16832/16864 8-bit, 16864/168128 4-bit;
     * QMMA.SP.16864.F32 fp8.
     */
    private static Spec sparseSpec(String opcode, List<String> m) {
        if (m.isEmpty()) {
            return null;
        }
        String shape = m.get(0);
        List<String> types = m.subList(1, m.size());
        return switch (opcode) {
            case "HMMA" -> {
                boolean tf32 = types.contains("TF32");
                int k = switch (shape) {
                    case "16816" -> 16;
                    case "16832" -> tf32 ? 0 : 32;
                    case "1688" -> tf32 ? 8 : 0;
                    default -> 0;
                };
                Spec dense = k == 0 ? null : hmma(tf32 ? "1688" : "16816", types); // the types a dense shape takes
                yield dense == null ? null : new Spec(16, 8, k, dense.ab(), dense.c(), dense.d(), false);
            }
            case "IMMA" -> {
                Spec dense = imma("16832", types);
                boolean nibbles = dense != null && dense.ab().bits() == 4;
                int k = switch (shape) {
                    case "16832" -> nibbles ? 0 : 32;
                    case "16864" -> 64;
                    case "168128" -> nibbles ? 128 : 0;
                    default -> 0;
                };
                yield dense == null || k == 0 ? null
                        : new Spec(16, 8, k, dense.ab(), Type.S32, Type.S32, dense.satfinite(), false, dense.b());
            }
            case "QMMA" -> {
                Spec dense = qmma("16832", types);
                yield shape.equals("16864") && dense != null && dense.d() == Type.F32
                        ? new Spec(16, 8, 64, dense.ab(), dense.c(), dense.d(), false, false, dense.b()) : null;
            }
            default -> null;
        };
    }

    private static Spec hmma(String shape, List<String> types) {
        if (shape.equals("884")) { // Turing's quad-pair steps: HMMA.884.{F16.F16, F32.F32, F32.F16}.STEPn (D, C)
            Type d = types.size() != 3 ? null : types.get(0).equals("F32") ? Type.F32
                    : types.get(0).equals("F16") ? Type.F16 : null;
            Type c = types.size() != 3 ? null : types.get(1).equals("F32") ? Type.F32
                    : types.get(1).equals("F16") ? Type.F16 : null;
            int step = step(types);
            boolean ok = d != null && c != null && !(d == Type.F16 && c == Type.F32);
            return ok && step >= 0 && step < (d == Type.F32 ? 4 : 2) ? new Spec(8, 8, 4, Type.F16, c, d, false) : null;
        }
        int k = switch (shape) {
            case "16816" -> 16;
            case "1688" -> 8;
            case "1684" -> 4;
            default -> 0;
        };
        if (k == 0 || types.isEmpty()) {
            return null;
        }
        Type acc = types.get(0).equals("F32") ? Type.F32 : types.get(0).equals("F16") ? Type.F16 : null;
        String in = types.size() == 1 ? "F16" : types.size() == 2 ? types.get(1) : "";
        Type ab = switch (in) {
            case "F16" -> Type.F16;
            case "BF16" -> Type.BF16;
            case "TF32" -> Type.TF32;
            default -> null;
        };
        boolean ok = ab == Type.F16 ? acc != null && k != 4
                : ab == Type.BF16 ? acc == Type.F32 && k != 4
                : ab == Type.TF32 && acc == Type.F32 && k != 16;
        if (!ok) {
            return null;
        }
        return new Spec(16, 8, k, ab, acc, acc, false);
    }

    /** {@code QMMA.16832|16816.F32|F16.A.B}: e4m3/e5m2 inputs, A and B each its own type, f32 or f16 accumulation. */
    private static Spec qmma(String shape, List<String> types) {
        int k = shape.equals("16832") ? 32 : shape.equals("16816") ? 16 : 0;
        if (k == 0 || types.size() != 3) {
            return null;
        }
        Type acc = types.get(0).equals("F32") ? Type.F32 : types.get(0).equals("F16") ? Type.F16 : null;
        Type a = fp8(types.get(1)), b = fp8(types.get(2));
        return acc == null || a == null || b == null ? null : new Spec(16, 8, k, a, acc, acc, false, false, b);
    }

    private static Type fp8(String name) {
        return switch (name) {
            case "E4M3" -> Type.E4M3;
            case "E5M2" -> Type.E5M2;
            default -> null;
        };
    }

    /** {@code BMMA.168256|168128|88128.AND|XOR.POPC}: b1 inputs, s32 accumulation. */
    private static Spec bmma(String shape, List<String> mods) {
        if (mods.size() != 2 || !mods.get(1).equals("POPC") || !mods.get(0).matches("AND|XOR")) {
            return null;
        }
        boolean xor = mods.get(0).equals("XOR");
        return switch (shape) {
            case "168256" -> new Spec(16, 8, 256, Type.B1, Type.S32, Type.S32, false, xor);
            case "168128" -> new Spec(16, 8, 128, Type.B1, Type.S32, Type.S32, false, xor);
            case "88128" -> new Spec(8, 8, 128, Type.B1, Type.S32, Type.S32, false, xor);
            default -> null;
        };
    }

    private static Spec imma(String shape, List<String> types) {
        boolean sat = types.contains("SAT");
        List<String> t = types.stream().filter(x -> !x.equals("SAT")).toList();
        if (t.size() != 2) {
            return null;
        }
        // A's type then B's: one width, each signed or not (IMMA.16832.S8.U8)
        Type ab = integerInput(t.get(0)), b = integerInput(t.get(1));
        if (ab == null || b == null || ab.bits() != b.bits()) {
            return null;
        }
        boolean nibbles = ab == Type.S4 || ab == Type.U4;
        // 8-bit: 16832, 16816, 8816; 4-bit: 16864, 16832, 8832
        boolean m8 = shape.equals(nibbles ? "8832" : "8816");
        int k = m8 ? (nibbles ? 32 : 16) : switch (shape) {
            case "16864" -> nibbles ? 64 : 0;
            case "16832" -> 32;
            case "16816" -> nibbles ? 0 : 16;
            default -> 0;
        };
        return k == 0 ? null : new Spec(m8 ? 8 : 16, 8, k, ab, Type.S32, Type.S32, sat, false, b);
    }

    private static Type integerInput(String name) {
        return switch (name) {
            case "S8" -> Type.S8;
            case "U8" -> Type.U8;
            case "S4" -> Type.S4;
            case "U4" -> Type.U4;
            default -> null;
        };
    }

    /**
     * Runs {@code op} ({@code spec}) for a full warp: {@code regs[lane]} is each lane's register file. Every source is
     * read before D is written, so D may overlap the sources.
     */
    static void execute(SassOp op, Spec spec, int[][] regs) {
        List<SassOperand> o = op.operands();
        int d = index(o.get(0)), a = index(o.get(1)), b = index(o.get(2)), c = index(o.get(3));
        if (sparse(op)) {
            sparse(spec, d, a, b, c, index(o.get(4)), (int) ((SassOperand.Imm) o.get(5)).bits(), regs);
            return;
        }
        if (spec.m() == 8 && spec.ab() == Type.F16) {
            QuadPairMma.Form form = new QuadPairMma.Form(layout(o.get(1)).equals("COL"), layout(o.get(2)).equals("ROW"),
                    spec.c() == Type.F32, spec.d() == Type.F32);
            quadPairStep(form, step(op.modifiers()), d, a, b, c, regs);
            return;
        }
        int[][] ra = new int[32][], rb = new int[32][], rc = new int[32][];
        for (int l = 0; l < 32; l++) {
            ra[l] = read(regs[l], a, spec.aRegs());
            rb[l] = read(regs[l], b, spec.bRegs());
            rc[l] = read(regs[l], c, spec.cRegs());
        }
        int[][] rd = WarpMma.multiply(spec, ra, rb, rc);
        if (d == 255) {
            return;
        }
        for (int l = 0; l < 32; l++) {
            System.arraycopy(rd[l], 0, regs[l], d, rd[l].length);
        }
    }

    /** A sparse multiply: A holds half the k, {@code e} the metadata register, {@code selector} its lanes. */
    private static void sparse(Spec spec, int d, int a, int b, int c, int e, int selector, int[][] regs) {
        int[][] ra = new int[32][], rb = new int[32][], rc = new int[32][];
        int[] meta = new int[32];
        for (int l = 0; l < 32; l++) {
            ra[l] = read(regs[l], a, spec.aRegs() / 2);
            rb[l] = read(regs[l], b, spec.bRegs());
            rc[l] = read(regs[l], c, spec.cRegs());
            meta[l] = read(regs[l], e, 1)[0];
        }
        int[][] rd = WarpMma.multiplySparse(spec, ra, rb, rc, meta, selector);
        if (d == 255) {
            return;
        }
        for (int l = 0; l < 32; l++) {
            System.arraycopy(rd[l], 0, regs[l], d, rd[l].length);
        }
    }

    /** The n of a {@code STEPn} modifier, or -1. */
    private static int step(List<String> mods) {
        String last = mods.get(mods.size() - 1);
        return last.matches("STEP[0-3]") ? last.charAt(4) - '0' : -1;
    }

    /**
     * One step of {@code HMMA.884} ({@link QuadPairMma}): every step reads all of A and B (2 registers each) and two
     * registers of C, and writes the two registers of D that hold the same elements (registers 2n and 2n + 1 of the
     * quad-pair fragment: f16 C/D have 4, f32 C/D 8); over an f16 C an f32 D's steps 2m and 2m + 1 read C's registers
     * 2m and 2m + 1 (the columns of D's elements).
     */
    private static void quadPairStep(QuadPairMma.Form f, int step, int d, int a, int b, int c, int[][] regs) {
        int[][] ra = new int[32][], rb = new int[32][], rc = new int[32][f.cRegs()];
        int cFirst = f.dF32() && !f.cF32() ? 2 * (step / 2) : 2 * step;
        for (int l = 0; l < 32; l++) {
            ra[l] = read(regs[l], a, 2);
            rb[l] = read(regs[l], b, 2);
            int[] part = read(regs[l], c, 2);
            rc[l][cFirst] = part[0];
            rc[l][cFirst + 1] = part[1];
        }
        int[][] rd = QuadPairMma.multiply(f, ra, rb, rc);
        if (d == 255) {
            return;
        }
        for (int l = 0; l < 32; l++) {
            regs[l][d] = rd[l][2 * step];
            regs[l][d + 1] = rd[l][2 * step + 1];
        }
    }

    /** The layout an operand names ({@code R4.COL}: "COL"), or "". */
    private static String layout(SassOperand o) {
        return o instanceof Reg r ? r.suffix().replace(".", "") : "";
    }

    private static int index(SassOperand o) {
        // IMMA names its operands' layouts (R4.ROW, R8.COL): the fragment layout is the same
        if (o instanceof Reg r && !r.negate() && !r.abs() && !r.invert()
                && r.suffix().replace(".", "").matches("|ROW|COL")) {
            return r.index();
        }
        throw new ClassCastException("operand " + o); // an operand form the emulator does not implement
    }

    private static int[] read(int[] file, int first, int n) {
        int[] w = new int[n];
        if (first != 255) {
            System.arraycopy(file, first, w, 0, n);
        }
        return w;
    }
}
