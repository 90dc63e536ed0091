package org.jptxas.simulator.sass;

import java.util.List;
import org.jptxas.simulator.sass.SassOperand.CBank;
import org.jptxas.simulator.sass.SassOperand.Imm;
import org.jptxas.simulator.sass.SassOperand.Pred;
import org.jptxas.simulator.sass.SassOperand.Reg;
import org.jptxas.simulator.sass.SassOperand.Target;
import org.jptxas.simulator.sass.SassOperand.UReg;

/**
 * A {@link SassOp} decoded once, before any launch, into what the executor's inner loops need: a {@link Kind} for the
 * lane-vectorised fast path, source slots resolved to a per-lane register index or a warp-uniform value, destination
 * indices with RZ/PT mapped to scratch slots, and the opcode's role in scheduling (collective, uniform datapath,
 * convergence). Instructions or operand forms the fast path does not cover keep kind {@link Kind#SLOW} and run
 * through {@link SassMachine}'s per-thread semantics, which stop by name on anything unimplemented.
 */
final class DecodedOp {
    /**
     * The fast-path handler; {@code SLOW} runs the per-thread semantics. Straight-line kinds run in {@link FastPath}
     * and move the whole group to the next instruction; the others (branch, block barrier, exit) change which
     * threads run next and are executed by {@link SassMachine} per warp.
     */
    enum Kind {
        SLOW(false), MOV, IMAD, IMAD_WIDE, IADD3, LEA, LOP3, SHF, ISETP, FFMA, FADD, FMUL, DFMA, DADD, DMUL, FSETP, SEL,
        LOAD, STORE, S2R, NOP, BRA(false), BAR_SYNC(false), EXIT(false);

        final boolean straightLine;

        Kind() {
            this(true);
        }

        Kind(boolean straightLine) {
            this.straightLine = straightLine;
        }
    }

    /** How a source slot is read: per lane from R, or once per warp instruction (immediate, UR, fixed c[][]). */
    static final byte REG = 0, CONST = 1, UREG = 2, CBANK = 3;

    /**
     * The register file of a function is sized to the registers it names: R0..Rmax plus headroom for register
     * pairs and quads, then {@link #zero} (RZ as a source: always 0, never written) and scratch slots from
     * {@code zero + 1} where RZ destinations go, so inner loops need no test. The per-thread semantics never index
     * RZ (they test for 255).
     */
    static int zeroSlot(List<SassOp> ops) {
        int max = 0;
        for (SassOp op : ops) {
            for (SassOperand o : op.operands()) {
                if (o instanceof Reg r && r.index() != 255) {
                    max = Math.max(max, r.index());
                } else if (o instanceof SassOperand.RegisterOffset pair) {
                    max = Math.max(max, pair.reg() + 1);
                } else if (o instanceof SassOperand.Mem m && m.reg() >= 0) {
                    max = Math.max(max, m.reg() + 1);
                } else if (o instanceof CBank c && c.baseReg() >= 0 && c.baseReg() != 255) {
                    max = Math.max(max, c.baseReg());
                }
            }
        }
        return Math.min(255, max + 4);
    }

    /** Registers per thread for code decoded with zero slot {@code zero}. */
    static int registerFileSize(int zero) {
        return zero + 6;
    }

    /** The zero slot of a register file of {@code size} registers per thread ({@link #registerFileSize}'s inverse). */
    static int zeroSlotOfFile(int size) {
        return size - 6;
    }

    /** RZ as a source (always 0); RZ destinations write {@code zero + 1} and up. */
    final int zero;
    /** Predicates per thread: P0..P6, PT at 7 (always true), a scratch slot for PT destinations. */
    static final int PREDS = 9;
    static final int PT_SINK = 8;

    /** Special registers the fast S2R reads. */
    static final int SR_TID_X = 0, SR_TID_Y = 1, SR_TID_Z = 2, SR_CTAID_X = 3, SR_CTAID_Y = 4, SR_CTAID_Z = 5, SR_LANEID = 6;

    final SassOp op;
    final int pc;
    final Kind kind;
    /** SHFL/VOTE/VOTEU/REDUX/MATCH/LDSM/HMMA/IMMA/DMMA: computed across the lanes of the converged group. */
    final boolean collective;
    /** BSSY/BSYNC/BREAK/BMOV/WARPSYNC: convergence-barrier state of the warp. */
    final boolean convergenceOp;
    final boolean exit;
    /** Uniform datapath (U*, S2UR, R2UR): computed once per warp. */
    final boolean uniformOp;
    final int guard;
    final boolean guardNegated, guardUniform;

    // Source slots of the fast path.
    final byte[] srcKind;
    final int[] srcIndex;
    final int[] srcConst;
    final long[] srcConst64;
    final CBank[] srcBank;
    final boolean[] srcNeg, srcAbs;
    /** Destination register (RZ mapped to a scratch slot), or -1. */
    final int dst;
    /** Predicate destinations (PT mapped to {@link #PT_SINK}), or -1. */
    final int pd0, pd1;
    /** Predicate sources (index, negation), or -1. */
    final int ps0, ps1;
    final boolean ps0Neg, ps1Neg;
    /** Kind-specific: LUT, comparison, access size, special register, branch target index. */
    final int aux;
    /** Kind-specific flags (see the constants below). */
    final int flags;
    /** LOAD/STORE: the address operand and the register the data comes from or goes to. */
    final SassOperand.Mem mem;
    /**
     * LOAD/STORE address, pre-decoded: a per-lane register (-1: none) read as a pair or scaled 32-bit value, plus a
     * warp-uniform UR (-1: none) read as a pair or 32-bit value, plus the offset.
     */
    final int addrReg, addrScale, addrUreg;
    final boolean addrRegPair, addrUregPair;
    final long addrOffset;

    static final int F_X = 1, F_UNSIGNED = 2, F_WIDE_GLOBAL = 4, F_SIGNED_ACCESS = 8, F_FTZ = 16, F_SAT = 32,
            F_HI = 64, F_LEFT = 128, F_WRAP = 256, F_64 = 512, F_EX = 1024, F_AND = 2048, F_OR = 4096,
            F_SHARED = 8192, F_SX32 = 16384;

    /** Comparisons (ISETP/FSETP). */
    static final int EQ = 0, NE = 1, LT = 2, LE = 3, GT = 4, GE = 5, EQU = 6, NEU = 7, LTU = 8, LEU = 9, GTU = 10,
            GEU = 11, NUM = 12, NAN = 13, F = 14, T = 15;

    private DecodedOp(SassOp op, Builder b) {
        this.op = op;
        this.zero = b.zero;
        this.pc = (int) (op.address() / 16);
        this.kind = b.kind;
        String o = op.opcode();
        this.collective = o.equals("SHFL") || o.equals("VOTE") || o.equals("VOTEU") || o.equals("REDUX")
                || o.equals("MATCH") || o.equals("LDSM") || o.equals("MOVM") || o.equals("ELECT") || o.equals("STSM") || o.equals("HMMA")
                || o.equals("IMMA") || o.equals("BMMA") || o.equals("QMMA") || o.equals("DMMA") || o.equals("HGMMA") || o.equals("QGMMA")
                || o.equals("IGMMA") || o.equals("BGMMA")
                || o.equals("WARPGROUP") || o.equals("USETMAXREG")
                || o.equals("R2UR") && !op.operands().isEmpty() && op.operands().get(0) instanceof SassOperand.Pred;
        this.uniformOp = o.startsWith("U") && !o.equals(SassListing.UNKNOWN) || o.equals("S2UR") || o.equals("R2UR");
        this.convergenceOp = o.equals("BSSY") || o.equals("BSYNC") || o.equals("BREAK") || o.equals("BMOV")
                || o.equals("WARPSYNC");
        this.exit = o.equals("EXIT");
        this.guard = op.guard();
        this.guardNegated = op.guardNegated();
        this.guardUniform = op.guardUniform();
        int n = b.slots;
        this.srcKind = java.util.Arrays.copyOf(b.srcKind, n);
        this.srcIndex = java.util.Arrays.copyOf(b.srcIndex, n);
        this.srcConst = java.util.Arrays.copyOf(b.srcConst, n);
        this.srcConst64 = java.util.Arrays.copyOf(b.srcConst64, n);
        this.srcBank = java.util.Arrays.copyOf(b.srcBank, n);
        this.srcNeg = java.util.Arrays.copyOf(b.srcNeg, n);
        this.srcAbs = java.util.Arrays.copyOf(b.srcAbs, n);
        this.dst = b.dst;
        this.pd0 = b.pd0;
        this.pd1 = b.pd1;
        this.ps0 = b.ps0;
        this.ps1 = b.ps1;
        this.ps0Neg = b.ps0Neg;
        this.ps1Neg = b.ps1Neg;
        this.aux = b.aux;
        this.flags = b.flags;
        this.mem = b.mem;
        SassOperand.Mem m = b.mem;
        boolean wideDefault = (b.flags & F_WIDE_GLOBAL) != 0;
        this.addrReg = m == null ? -1 : m.reg();
        this.addrScale = m == null ? 1 : m.scale();
        this.addrRegPair = m != null && (m.wide() || wideDefault && !m.zeroExtended());
        this.addrUreg = m == null ? -1 : m.ureg();
        // a uniform register alone is a 64-bit address, except in shared memory ([UR14+0x200]: a window offset)
        this.addrUregPair = m != null && (m.wide() || m.reg() < 0 && (b.flags & F_SHARED) == 0 || m.zeroExtended());
        this.addrOffset = m == null ? 0 : m.offset();
    }

    boolean is(int flag) {
        return (flags & flag) != 0;
    }

    /** Decodes one function's instructions, indexed by address / 16 (gaps stay null). */
    static DecodedOp[] decodeAll(List<SassOp> ops) {
        int n = ops.isEmpty() ? 0 : (int) (ops.get(ops.size() - 1).address() / 16) + 1;
        DecodedOp[] code = new DecodedOp[n];
        int zero = zeroSlot(ops);
        for (SassOp o : ops) {
            code[(int) (o.address() / 16)] = decode(o, zero);
        }
        return code;
    }

    static DecodedOp decode(SassOp op, int zero) {
        Builder b = new Builder(zero);
        try {
            b.kind = fastKind(op, b);
        } catch (Unsupported | RuntimeException e) {
            b = new Builder(zero);
            b.kind = Kind.SLOW;
        }
        if (b.kind == null) {
            b = new Builder(zero);
            b.kind = Kind.SLOW;
        }
        return new DecodedOp(op, b);
    }

    /** A form the fast path leaves to the per-thread semantics. */
    private static final class Unsupported extends Exception {
        private static final long serialVersionUID = 1L;

        Unsupported() {
            super(null, null, false, false);
        }
    }

    private static final class Builder {
        final int zero;
        Kind kind;
        int slots;
        final byte[] srcKind = new byte[6];
        final int[] srcIndex = new int[6];
        final int[] srcConst = new int[6];
        final long[] srcConst64 = new long[6];
        final CBank[] srcBank = new CBank[6];
        final boolean[] srcNeg = new boolean[6], srcAbs = new boolean[6];
        int dst = -1, pd0 = -1, pd1 = -1, ps0 = -1, ps1 = -1;
        boolean ps0Neg, ps1Neg;
        int aux, flags;
        SassOperand.Mem mem;

        Builder(int zero) {
            this.zero = zero;
        }

        /** Adds a source slot; {@code negOk}/{@code absOk}: whether the handler applies those modifiers. */
        void src(SassOperand o, boolean negOk, boolean absOk) throws Unsupported {
            int s = slots++;
            if (o instanceof Reg r) {
                if (r.invert() || !r.suffix().isEmpty() || r.negate() && !negOk || r.abs() && !absOk) {
                    throw new Unsupported();
                }
                srcKind[s] = REG;
                srcIndex[s] = r.index() == 255 ? zero : r.index();
                srcNeg[s] = r.negate();
                srcAbs[s] = r.abs();
            } else if (o instanceof UReg u) {
                if (u.invert() || u.negate() && !negOk) {
                    throw new Unsupported();
                }
                srcKind[s] = UREG;
                srcIndex[s] = u.index();
                srcNeg[s] = u.negate();
            } else if (o instanceof Imm i) {
                srcKind[s] = CONST;
                srcConst[s] = i.floating() ? Float.floatToRawIntBits((float) i.value()) : (int) i.bits();
                srcConst64[s] = i.bits();
            } else if (o instanceof CBank c) {
                if (c.baseReg() >= 0 && c.baseReg() != 255 || c.negate() && !negOk || c.abs() && !absOk) {
                    throw new Unsupported();
                }
                srcKind[s] = CBANK;
                srcBank[s] = c;
                srcNeg[s] = c.negate();
                srcAbs[s] = c.abs();
            } else {
                throw new Unsupported();
            }
        }

        int dstReg(SassOperand o) throws Unsupported {
            if (!(o instanceof Reg r) || r.negate() || r.abs() || r.invert() || !r.suffix().isEmpty()) {
                throw new Unsupported();
            }
            return r.index() == 255 ? zero + 1 : r.index();
        }

        int dstPred(SassOperand o) throws Unsupported {
            if (!(o instanceof Pred p) || p.negated()) {
                throw new Unsupported();
            }
            return p.index() == 7 ? PT_SINK : p.index();
        }

        void predSrc(SassOperand o, boolean second) throws Unsupported {
            if (!(o instanceof Pred p)) {
                throw new Unsupported();
            }
            if (second) {
                ps1 = p.index();
                ps1Neg = p.negated();
            } else {
                ps0 = p.index();
                ps0Neg = p.negated();
            }
        }
    }

    private static boolean only(SassOp op, String... allowed) {
        for (String m : op.modifiers()) {
            boolean ok = false;
            for (String a : allowed) {
                ok |= a.equals(m);
            }
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    private static Kind fastKind(SassOp op, Builder b) throws Unsupported {
        List<SassOperand> o = op.operands();
        if (op.guardUniform() && op.guard() != 7) {
            return Kind.SLOW;
        }
        switch (op.opcode()) {
            case "NOP" -> {
                return op.modifiers().isEmpty() && o.isEmpty() ? Kind.NOP : Kind.SLOW;
            }
            case "HFMA2" -> {
                // ptxas's constant idiom HFMA2.MMA Rd, -RZ, RZ, hi, lo: (+-0 * 0) + c per half, folded to a MOV of c.
                if (!only(op, "MMA") || o.size() != 5 || !(o.get(1) instanceof Reg za) || za.index() != 255
                        || !za.suffix().isEmpty() || za.invert() || !(o.get(2) instanceof Reg zb) || zb.index() != 255
                        || zb.negate() || zb.abs() || zb.invert() || !zb.suffix().isEmpty()
                        || !(o.get(3) instanceof Imm hi) || !(o.get(4) instanceof Imm lo)) {
                    return Kind.SLOW;
                }
                int c = (org.jptxas.simulator.numeric.SmallFloats.toHalf(hi.value()) << 16)
                        | org.jptxas.simulator.numeric.SmallFloats.toHalf(lo.value());
                double x = za.negate() ? -0.0 : 0.0;
                int r = 0;
                for (int k = 0; k < 2; k++) {
                    double z = org.jptxas.simulator.numeric.SmallFloats.halfToFloat(c >>> (16 * k) & 0xffff);
                    r |= (org.jptxas.simulator.numeric.SmallFloats.toHalf(Math.fma(x, 0.0, z)) & 0xffff) << (16 * k);
                }
                b.dst = b.dstReg(o.get(0));
                b.src(new Imm(r, r, false), false, false);
                return Kind.MOV;
            }
            case "MOV" -> {
                if (!op.modifiers().isEmpty() || o.size() < 2) {
                    return Kind.SLOW;
                }
                b.dst = b.dstReg(o.get(0));
                b.src(o.get(1), false, false);
                return Kind.MOV;
            }
            case "IMAD" -> {
                if (!only(op, "MOV", "U32", "IADD", "SHL", "X", "WIDE")) {
                    return Kind.SLOW;
                }
                if (op.has("WIDE")) {
                    if (op.has("X") || o.size() != 4) {
                        return Kind.SLOW;
                    }
                    b.dst = b.dstReg(o.get(0));
                    b.src(o.get(1), true, false);
                    b.src(o.get(2), true, false);
                    b.src(o.get(3), false, false);
                    b.flags |= op.has("U32") ? F_UNSIGNED : 0;
                    return Kind.IMAD_WIDE;
                }
                if (o.size() != (op.has("X") ? 5 : 4)) {
                    return Kind.SLOW;
                }
                b.dst = b.dstReg(o.get(0));
                b.src(o.get(1), true, false);
                b.src(o.get(2), true, false);
                b.src(o.get(3), true, false);
                if (op.has("X")) {
                    b.predSrc(o.get(4), false);
                    b.flags |= F_X;
                }
                return Kind.IMAD;
            }
            case "IADD3" -> {
                if (!only(op, "X")) {
                    return Kind.SLOW;
                }
                b.dst = b.dstReg(o.get(0));
                int i = 1;
                if (o.get(i) instanceof Pred) {
                    b.pd0 = b.dstPred(o.get(i++));
                    if (o.get(i) instanceof Pred) {
                        b.pd1 = b.dstPred(o.get(i++));
                    }
                }
                for (int k = 0; k < 3; k++) {
                    SassOperand s = o.get(i + k);
                    if (s instanceof CBank c && c.negate()) {
                        throw new Unsupported();
                    }
                    b.src(s, true, false);
                }
                if (op.has("X")) {
                    int extra = o.size() - (i + 3);
                    if (extra > 2) {
                        throw new Unsupported();
                    }
                    if (extra >= 1) {
                        b.predSrc(o.get(i + 3), false);
                    }
                    if (extra == 2) {
                        b.predSrc(o.get(i + 4), true);
                    }
                    b.flags |= F_X;
                }
                return Kind.IADD3;
            }
            case "LEA" -> {
                if (!only(op, "HI", "X", "SX32")) {
                    return Kind.SLOW;
                }
                b.dst = b.dstReg(o.get(0));
                int i = 1;
                if (o.get(i) instanceof Pred) {
                    b.pd0 = b.dstPred(o.get(i++));
                }
                boolean hi = op.has("HI"), sx = op.has("SX32");
                if (sx && !hi) {
                    return Kind.SLOW;
                }
                b.src(o.get(i), true, false);
                b.src(o.get(i + 1), true, false);
                int shiftIdx;
                if (hi && !sx) {
                    b.src(o.get(i + 2), true, false);
                    shiftIdx = i + 3;
                } else if (hi) {
                    b.src(new Imm(0, 0, false), false, false);
                    shiftIdx = i + 2;
                } else {
                    b.src(new Imm(0, 0, false), false, false);
                    shiftIdx = i + 2;
                }
                b.src(o.get(shiftIdx), true, false);
                if (op.has("X") && shiftIdx + 1 < o.size()) {
                    b.predSrc(o.get(shiftIdx + 1), false);
                    b.flags |= F_X;
                }
                if (shiftIdx + 2 < o.size() || !op.has("X") && shiftIdx + 1 < o.size()) {
                    return Kind.SLOW;
                }
                b.flags |= (hi ? F_HI : 0) | (sx ? F_SX32 : 0);
                return Kind.LEA;
            }
            case "LOP3" -> {
                if (!only(op, "LUT")) {
                    return Kind.SLOW;
                }
                int i;
                if (o.get(0) instanceof Pred) {
                    b.pd0 = b.dstPred(o.get(0));
                    b.dst = b.dstReg(o.get(1));
                    i = 2;
                    if (o.size() > 6) {
                        b.predSrc(o.get(6), false); // the predicate ORed into the non-zero test
                    }
                } else {
                    b.dst = b.dstReg(o.get(0));
                    i = 1;
                    if (o.get(1) instanceof Pred) {
                        b.pd0 = b.dstPred(o.get(1));
                        i = 2;
                    }
                    if (o.size() > i + 4 && !(o.get(i + 4) instanceof Pred)) {
                        throw new Unsupported();
                    }
                }
                b.src(o.get(i), false, false);
                b.src(o.get(i + 1), false, false);
                b.src(o.get(i + 2), false, false);
                if (!(o.get(i + 3) instanceof Imm lut) || lut.floating()) {
                    throw new Unsupported();
                }
                b.aux = (int) lut.bits() & 0xff;
                return Kind.LOP3;
            }
            case "SHF" -> {
                if (!only(op, "L", "R", "W", "HI", "U32", "S32", "U64", "S64") || o.size() != 4) {
                    return Kind.SLOW;
                }
                b.dst = b.dstReg(o.get(0));
                b.src(o.get(1), false, false);
                b.src(o.get(2), false, false);
                b.src(o.get(3), false, false);
                b.flags |= FunnelShift.mode(op);
                return Kind.SHF;
            }
            case "ISETP" -> {
                if (op.modifiers().isEmpty() || !only(op, "EQ", "NE", "LT", "LE", "GT", "GE", "F", "T", "U32", "S32",
                        "AND", "OR", "XOR", "EX")) {
                    return Kind.SLOW;
                }
                b.aux = comparison(op.modifiers().get(0));
                if (b.aux > GE && b.aux != F && b.aux != T || op.has("EX") && (b.aux == F || b.aux == T)) {
                    return Kind.SLOW;
                }
                b.pd0 = b.dstPred(o.get(0));
                b.pd1 = b.dstPred(o.get(1));
                b.src(o.get(2), false, false);
                b.src(o.get(3), false, false);
                b.predSrc(o.get(4), false);
                if (op.has("EX")) {
                    // sm_75's nvdisasm hides a PT .EX predicate: ISETP.LT.AND.EX P0, PT, R3, 0x1, !PT
                    b.predSrc(o.size() > 5 ? o.get(5) : new SassOperand.Pred(7, false), true);
                    b.flags |= F_EX;
                }
                b.flags |= (op.has("U32") ? F_UNSIGNED : 0) | (op.has("AND") ? F_AND : op.has("OR") ? F_OR : 0);
                return Kind.ISETP;
            }
            case "FSETP" -> {
                if (op.modifiers().isEmpty() || !only(op, "EQ", "NE", "LT", "LE", "GT", "GE", "EQU", "NEU", "LTU", "LEU",
                        "GTU", "GEU", "NUM", "NAN", "F", "T", "AND", "OR", "XOR", "FTZ")) {
                    return Kind.SLOW;
                }
                b.aux = comparison(op.modifiers().get(0));
                b.pd0 = b.dstPred(o.get(0));
                b.pd1 = b.dstPred(o.get(1));
                b.src(o.get(2), true, true);
                b.src(o.get(3), true, true);
                b.predSrc(o.get(4), false);
                b.flags |= (op.has("FTZ") ? F_FTZ : 0) | (op.has("AND") ? F_AND : op.has("OR") ? F_OR : 0);
                return Kind.FSETP;
            }
            case "FFMA", "FADD", "FMUL" -> {
                if (!only(op, "FTZ", "SAT")) {
                    return Kind.SLOW; // directed rounding and the rest: the per-thread semantics
                }
                boolean fma = op.opcode().equals("FFMA");
                if (o.size() != (fma ? 4 : 3)) {
                    return Kind.SLOW;
                }
                b.dst = b.dstReg(o.get(0));
                b.src(o.get(1), true, true);
                b.src(o.get(2), true, true);
                if (fma) {
                    b.src(o.get(3), true, true);
                }
                b.flags |= (op.has("FTZ") ? F_FTZ : 0) | (op.has("SAT") ? F_SAT : 0);
                return fma ? Kind.FFMA : op.opcode().equals("FADD") ? Kind.FADD : Kind.FMUL;
            }
            case "DFMA", "DADD", "DMUL" -> {
                boolean fma = op.opcode().equals("DFMA");
                if (!op.modifiers().isEmpty() || o.size() != (fma ? 4 : 3)) {
                    return Kind.SLOW; // directed rounding: the per-thread semantics
                }
                b.dst = b.dstReg(o.get(0));
                for (int k = 1; k < o.size(); k++) {
                    SassOperand s = o.get(k);
                    if (s instanceof Reg r && r.index() == 255) {
                        throw new Unsupported(); // RZ as a pair: the per-thread semantics
                    }
                    b.src(s, true, true);
                    if (s instanceof Imm i) { // f64 immediates: the value, or the high word of its bits
                        b.srcConst64[k - 1] = Double.doubleToRawLongBits(i.floating() ? i.value()
                                : Double.longBitsToDouble(i.bits() << 32));
                    }
                }
                return fma ? Kind.DFMA : op.opcode().equals("DADD") ? Kind.DADD : Kind.DMUL;
            }
            case "SEL", "FSEL" -> {
                if (!op.modifiers().isEmpty() || o.size() != 4) {
                    return Kind.SLOW;
                }
                b.dst = b.dstReg(o.get(0));
                b.src(o.get(1), false, false);
                b.src(o.get(2), false, false);
                b.predSrc(o.get(3), false);
                return Kind.SEL;
            }
            case "LDG", "LDS", "STG", "STS" -> {
                boolean load = op.opcode().startsWith("LD");
                boolean global = op.opcode().endsWith("G");
                SassOperand m = o.get(load ? 1 : 0), r = o.get(load ? 0 : 1);
                if (!(m instanceof SassOperand.Mem mm) || !(r instanceof Reg reg) || reg.negate() || reg.abs()
                        || reg.invert() || !reg.suffix().isEmpty() || o.size() != 2) {
                    return Kind.SLOW;
                }
                b.mem = mm;
                b.dst = reg.index() == 255 ? (load ? b.zero + 1 : b.zero) : reg.index();
                int size = 4;
                for (String mod : op.modifiers()) {
                    switch (mod) {
                        case "U8", "S8" -> size = 1;
                        case "U16", "S16" -> size = 2;
                        case "64" -> size = 8;
                        case "128" -> size = 16;
                        default -> { }
                    }
                }
                if (size > 4 && reg.index() == 255 || mm.reg() == 255 || mm.ureg() == 63) {
                    return Kind.SLOW;
                }
                b.aux = size;
                b.flags |= (global && op.has("E") ? F_WIDE_GLOBAL : 0) | (op.has("S8") || op.has("S16") ? F_SIGNED_ACCESS : 0)
                        | (global ? 0 : F_SHARED);
                return load ? Kind.LOAD : Kind.STORE;
            }
            case "BAR" -> {
                // BAR.SYNC{.DEFER_BLOCKING} {id}: arrive at a block barrier with a fixed id
                if (!op.has("SYNC") || !only(op, "SYNC", "DEFER_BLOCKING") || o.size() > 1) {
                    return Kind.SLOW;
                }
                if (o.size() == 1) {
                    if (!(o.get(0) instanceof Imm id) || id.floating() || id.bits() < 0 || id.bits() > 15) {
                        return Kind.SLOW;
                    }
                    b.aux = (int) id.bits();
                }
                return Kind.BAR_SYNC;
            }
            case "EXIT" -> {
                return op.modifiers().isEmpty() && o.isEmpty() ? Kind.EXIT : Kind.SLOW;
            }
            case "BRA" -> {
                if (!op.modifiers().isEmpty() || o.size() != 1 || !(o.get(0) instanceof Target t)) {
                    return Kind.SLOW;
                }
                b.aux = (int) (t.address() / 16);
                return Kind.BRA;
            }
            case "S2R" -> {
                if (!op.modifiers().isEmpty() || !(o.get(1) instanceof SassOperand.Special sr)) {
                    return Kind.SLOW;
                }
                b.dst = b.dstReg(o.get(0));
                switch (sr.name()) {
                    case "SR_TID.X" -> b.aux = SR_TID_X;
                    case "SR_TID.Y" -> b.aux = SR_TID_Y;
                    case "SR_TID.Z" -> b.aux = SR_TID_Z;
                    case "SR_CTAID.X" -> b.aux = SR_CTAID_X;
                    case "SR_CTAID.Y" -> b.aux = SR_CTAID_Y;
                    case "SR_CTAID.Z" -> b.aux = SR_CTAID_Z;
                    case "SR_LANEID" -> b.aux = SR_LANEID;
                    default -> {
                        return Kind.SLOW;
                    }
                }
                return Kind.S2R;
            }
            default -> {
                return Kind.SLOW;
            }
        }
    }

    static int comparison(String m) {
        return switch (m) {
            case "EQ" -> EQ;
            case "NE" -> NE;
            case "LT" -> LT;
            case "LE" -> LE;
            case "GT" -> GT;
            case "GE" -> GE;
            case "EQU" -> EQU;
            case "NEU" -> NEU;
            case "LTU" -> LTU;
            case "LEU" -> LEU;
            case "GTU" -> GTU;
            case "GEU" -> GEU;
            case "NUM" -> NUM;
            case "NAN" -> NAN;
            case "F" -> F;
            case "T" -> T;
            default -> -1;
        };
    }
}
