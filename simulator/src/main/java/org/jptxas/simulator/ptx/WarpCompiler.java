package org.jptxas.simulator.ptx;

import java.util.List;
import org.jptxas.frontend.ptx.ast.Expr;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.simulator.exec.Fault;
import org.jptxas.simulator.exec.MatrixFragments;
import org.jptxas.simulator.memory.AddressSpace;
import org.jptxas.simulator.memory.MemoryAccessException;
import org.jptxas.simulator.ptx.InstructionCompiler.Unsupported;
import static org.jptxas.simulator.ptx.Values.ext;
import static org.jptxas.simulator.ptx.Values.isFloat;
import static org.jptxas.simulator.ptx.Values.isSigned;
import static org.jptxas.simulator.ptx.Values.mask;
import static org.jptxas.simulator.ptx.Values.write;

/** Warp-level instructions: elect, activemask, shfl, vote, match, redux, ldmatrix, movmatrix and mma. */
final class WarpCompiler {
    private final InstructionCompiler ic;

    WarpCompiler(InstructionCompiler ic) {
        this.ic = ic;
    }

    Insn elect() throws ProgramException, Unsupported {
        int d, p;
        if (ic.op(0) instanceof Operand.Pair pair) {
            d = ic.dst(pair.first());
            p = ic.dst(pair.second());
        } else {
            d = -1;
            p = ic.dst(ic.op(0));
        }
        Src m = ic.src(ic.op(1), PtxType.B32);
        return ic.warp((lanes, group) -> {
            int leader = Integer.numberOfTrailingZeros(group);
            for (int l = 0; l < 32; l++) {
                if ((group >>> l & 1) != 0) {
                    write(lanes[l], d, leader);
                    write(lanes[l], p, l == leader ? 1 : 0);
                }
            }
        }, m);
    }

    Insn activemask() throws ProgramException, Unsupported {
        int d = ic.dst(ic.op(0));
        return ic.warp((lanes, group) -> {
            for (int l = 0; l < 32; l++) {
                if ((group >>> l & 1) != 0) {
                    write(lanes[l], d, group & 0xffffffffL);
                }
            }
        }, null);
    }

    Insn shfl() throws ProgramException, Unsupported {
        // shfl.sync.mode.b32 d[|p], a, b, c, membermask;
        String mode = ic.mods.contains("up") ? "up" : ic.mods.contains("down") ? "down" : ic.mods.contains("bfly") ? "bfly" : "idx";
        int d, p = -1;
        if (ic.op(0) instanceof Operand.Pair pair) {
            d = ic.dst(pair.first());
            p = ic.dst(pair.second());
        } else {
            d = ic.dst(ic.op(0));
        }
        Src a = ic.src(ic.op(1), PtxType.B32), b = ic.src(ic.op(2), PtxType.B32), c = ic.src(ic.op(3), PtxType.B32);
        Src m = ic.ops.size() > 4 ? ic.src(ic.op(4), PtxType.B32) : t -> 0xffffffffL;
        int pp = p;
        return ic.warp((lanes, group) -> {
            long[] values = new long[32];
            for (int l = 0; l < 32; l++) {
                if ((group >>> l & 1) != 0) {
                    values[l] = a.get(lanes[l]);
                }
            }
            long[] out = new long[32];
            boolean[] ok = new boolean[32];
            for (int l = 0; l < 32; l++) {
                if ((group >>> l & 1) == 0) {
                    continue;
                }
                ThreadState th = lanes[l];
                int bval = (int) b.get(th) & 0x1f, cval = (int) c.get(th);
                int segmask = (cval >>> 8) & 0x1f, clamp = cval & 0x1f;
                int maxLane = (l & segmask) | (clamp & ~segmask), minLane = l & segmask;
                int j;
                boolean valid;
                switch (mode) {
                    case "up" -> { j = l - bval; valid = j >= maxLane; }
                    case "down" -> { j = l + bval; valid = j <= maxLane; }
                    case "bfly" -> { j = l ^ bval; valid = j <= maxLane; }
                    default -> { j = minLane | (bval & ~segmask); valid = j <= maxLane; }
                }
                if (!valid) {
                    j = l;
                }
                if ((group >>> j & 1) == 0) {
                    throw new InterpreterError("shfl.sync reads lane " + j + ", which is not executing it (undefined)");
                }
                out[l] = values[j];
                ok[l] = valid;
            }
            for (int l = 0; l < 32; l++) {
                if ((group >>> l & 1) != 0) {
                    write(lanes[l], d, out[l]);
                    if (pp >= 0) {
                        write(lanes[l], pp, ok[l] ? 1 : 0);
                    }
                }
            }
        }, m);
    }

    Insn vote() throws ProgramException, Unsupported {
        String mode = ic.mods.contains("all") ? "all" : ic.mods.contains("any") ? "any" : ic.mods.contains("uni") ? "uni" : "ballot";
        int d = ic.dst(ic.op(0));
        Operand po = ic.op(1);
        boolean neg = po instanceof Expr.Unary u && u.op() == Expr.UnaryOp.NOT;
        Src pred = ic.src(neg ? ((Expr.Unary) po).operand() : po, PtxType.PRED);
        Src m = ic.ops.size() > 2 ? ic.src(ic.op(2), PtxType.B32) : t -> 0xffffffffL;
        return ic.warp((lanes, group) -> {
            int ballot = 0;
            for (int l = 0; l < 32; l++) {
                if ((group >>> l & 1) != 0 && (pred.get(lanes[l]) != 0) != neg) {
                    ballot |= 1 << l;
                }
            }
            long r = switch (mode) {
                case "all" -> ballot == group ? 1 : 0;
                case "any" -> ballot != 0 ? 1 : 0;
                case "uni" -> ballot == 0 || ballot == group ? 1 : 0;
                default -> ballot & 0xffffffffL;
            };
            for (int l = 0; l < 32; l++) {
                if ((group >>> l & 1) != 0) {
                    write(lanes[l], d, r);
                }
            }
        }, m);
    }

    Insn match() throws ProgramException, Unsupported {
        boolean all = ic.mods.contains("all");
        PtxType t = ic.type();
        int d, p = -1;
        if (ic.op(0) instanceof Operand.Pair pair) {
            d = ic.dst(pair.first());
            p = ic.dst(pair.second());
        } else {
            d = ic.dst(ic.op(0));
        }
        Src a = ic.src(ic.op(1), t);
        Src m = ic.src(ic.op(2), PtxType.B32);
        long vm = mask(t.sizeBytes());
        int pp = p;
        return ic.warp((lanes, group) -> {
            long[] v = new long[32];
            for (int l = 0; l < 32; l++) {
                if ((group >>> l & 1) != 0) {
                    v[l] = a.get(lanes[l]) & vm;
                }
            }
            for (int l = 0; l < 32; l++) {
                if ((group >>> l & 1) == 0) {
                    continue;
                }
                int same = 0;
                for (int o = 0; o < 32; o++) {
                    if ((group >>> o & 1) != 0 && v[o] == v[l]) {
                        same |= 1 << o;
                    }
                }
                if (all) {
                    boolean eq = same == group;
                    write(lanes[l], d, eq ? group & 0xffffffffL : 0);
                    if (pp >= 0) {
                        write(lanes[l], pp, eq ? 1 : 0);
                    }
                } else {
                    write(lanes[l], d, same & 0xffffffffL);
                }
            }
        }, m);
    }

    Insn redux() throws ProgramException, Unsupported {
        PtxType t = ic.type();
        String op = null;
        for (String m : ic.mods) {
            if (m.equals("add") || m.equals("min") || m.equals("max") || m.equals("and") || m.equals("or") || m.equals("xor")) {
                op = m;
            }
        }
        if (op == null || isFloat(t)) {
            throw ic.unsupported();
        }
        int d = ic.dst(ic.op(0));
        Src a = ic.src(ic.op(1), t);
        Src m = ic.src(ic.op(2), PtxType.B32);
        String o = op;
        boolean signed = isSigned(t);
        return ic.warp((lanes, group) -> {
            long acc = switch (o) {
                case "and" -> -1L;
                case "min" -> signed ? Integer.MAX_VALUE : 0xffffffffL;
                case "max" -> signed ? Integer.MIN_VALUE : 0;
                default -> 0;
            };
            for (int l = 0; l < 32; l++) {
                if ((group >>> l & 1) == 0) {
                    continue;
                }
                long v = ext(a.get(lanes[l]), t);
                acc = switch (o) {
                    case "add" -> acc + v;
                    case "min" -> signed ? Math.min(acc, v) : (Long.compareUnsigned(acc, v) <= 0 ? acc : v);
                    case "max" -> signed ? Math.max(acc, v) : (Long.compareUnsigned(acc, v) >= 0 ? acc : v);
                    case "and" -> acc & v;
                    case "or" -> acc | v;
                    default -> acc ^ v;
                };
            }
            for (int l = 0; l < 32; l++) {
                if ((group >>> l & 1) != 0) {
                    write(lanes[l], d, acc);
                }
            }
        }, m);
    }

    /**
     * {@code ldmatrix.sync.aligned.m8n8.x1|x2|x4{.trans}{.shared{::cta}}.b16 {d0, ...}, [a]}: N = 1, 2 or 4 8x8
     * matrices of 16-bit elements; lane t gives the address of row t%8 of matrix t/8 (16 bytes, 16-byte aligned, in
     * shared memory: a shared-space address with {@code .shared}, else a generic one that must point into the shared
     * window). Every lane t receives in di, low half first, elements (t/4, 2(t%4)) and (t/4, 2(t%4)+1) of matrix i,
     * or with {@code .trans} elements (2(t%4), t/4) and (2(t%4)+1, t/4). The whole warp executes it (as a
     * {@code .sync} instruction with a full member mask); a row whose lane does not execute it is undefined.
     */
    Insn ldmatrix() throws ProgramException, Unsupported {
        int n = ic.has("x4") ? 4 : ic.has("x2") ? 2 : ic.has("x1") ? 1 : 0;
        AddressSpace s = ic.has("shared::cta") ? AddressSpace.SHARED : ic.space();
        if (n == 0 || !ic.has("sync") || !ic.has("aligned") || !ic.has("m8n8") || !ic.has("b16")
                || s != AddressSpace.SHARED && s != AddressSpace.GENERIC) {
            throw ic.unsupported();
        }
        for (String m : ic.mods) {
            switch (m) {
                case "sync", "aligned", "m8n8", "x1", "x2", "x4", "trans", "shared", "shared::cta", "b16" -> { }
                default -> throw ic.unsupported();
            }
        }
        List<Operand> elements = ic.op(0) instanceof Operand.Vector v ? v.elements() : List.of(ic.op(0));
        if (elements.size() != n) {
            throw ic.fc.error(ic.line(), "ldmatrix." + (n == 1 ? "x1" : n == 2 ? "x2" : "x4") + " needs " + n
                    + " destination register(s), not " + elements.size());
        }
        int[] regs = new int[n];
        for (int i = 0; i < n; i++) {
            regs[i] = ic.dst(elements.get(i));
        }
        Src addr = ic.memory(ic.op(1));
        boolean trans = ic.has("trans");
        String where = "line " + ic.line() + " (" + ic.text() + ")";
        return ic.warp((lanes, group) -> {
            int[][] rows = new int[8 * n][];
            for (int r = 0; r < 8 * n; r++) {
                if ((group >>> r & 1) == 0) {
                    throw new InterpreterError("ldmatrix reads row " + (r & 7) + " of matrix " + r / 8 + " from lane "
                            + r + ", which is not executing it (undefined)");
                }
                ThreadState th = lanes[r];
                try {
                    rows[r] = matrixRow(th, s, addr.get(th));
                } catch (MemoryAccessException e) {
                    throw new FaultException(new Fault.MemoryFault(th.ref(), where, e));
                }
            }
            for (int l = 0; l < 32; l++) {
                if ((group >>> l & 1) == 0) {
                    continue;
                }
                for (int i = 0; i < n; i++) {
                    write(lanes[l], regs[i], Integer.toUnsignedLong(MatrixFragments.of(rows, 8 * i, l, trans)));
                }
            }
        }, t -> 0xffffffffL);
    }

    /**
     * {@code movmatrix.sync.aligned.m8n8.trans.b16 d, a}: the warp's 8x8 matrix of 16-bit elements, lane t holding
     * elements (t/4, 2(t%4)) and (t/4, 2(t%4)+1) in a, transposed into d in the same layout
     * ({@link MatrixFragments#transpose}). Every lane must execute it: a missing lane's elements are undefined.
     */
    Insn movmatrix() throws ProgramException, Unsupported {
        for (String m : ic.mods) {
            switch (m) {
                case "sync", "aligned", "m8n8", "trans", "b16" -> { }
                default -> throw ic.unsupported();
            }
        }
        if (!ic.has("sync") || !ic.has("aligned") || !ic.has("m8n8") || !ic.has("trans") || !ic.has("b16")) {
            throw ic.unsupported();
        }
        int d = ic.dst(ic.op(0));
        Src a = ic.src(ic.op(1), PtxType.B32);
        return ic.warp((lanes, group) -> {
            if (group != -1) {
                throw new InterpreterError("movmatrix needs all 32 lanes of the warp (executing: 0x"
                        + Integer.toHexString(group) + ")");
            }
            int[] in = new int[32];
            for (int l = 0; l < 32; l++) {
                in[l] = (int) a.get(lanes[l]);
            }
            int[] out = MatrixFragments.transpose(in);
            for (int l = 0; l < 32; l++) {
                write(lanes[l], d, Integer.toUnsignedLong(out[l]));
            }
        }, t -> 0xffffffffL);
    }

    /** {@code mma.sync.aligned ...}: {@link MmaInstruction}, over the whole warp. */
    Insn mma() throws ProgramException, Unsupported {
        if (ic.has("sp") || ic.has("sp::ordered_metadata")) {
            org.jptxas.simulator.exec.WarpMma.Spec sp = MmaInstruction.sparseSpec(ic.mods);
            if (sp == null) {
                throw ic.unsupported();
            }
            return ic.warp(MmaInstruction.compileSparse(sp, ic.ops, operands()), t -> 0xffffffffL);
        }
        org.jptxas.simulator.exec.QuadPairMma.Form quadPair = org.jptxas.simulator.exec.QuadPairMma.Form.of(ic.mods);
        if (quadPair != null) {
            return ic.warp(MmaInstruction.quadPair(quadPair, ic.ops, operands()), t -> 0xffffffffL);
        }
        org.jptxas.simulator.exec.WarpMma.Spec s = MmaInstruction.spec(ic.mods);
        if (s == null) {
            throw ic.unsupported();
        }
        return ic.warp(MmaInstruction.compile(s, ic.ops, operands()), t -> 0xffffffffL);
    }

    /** {@code wmma.mma.sync.aligned ...}: {@link WmmaInstruction}; wmma.load/store: {@link WmmaMemoryInstruction}. */
    Insn wmma() throws ProgramException, Unsupported {
        if (ic.has("load") || ic.has("store")) {
            org.jptxas.frontend.ptx.isa.WmmaFragment f = org.jptxas.frontend.ptx.isa.WmmaFragment.of(ic.mods);
            if (f == null) {
                throw ic.unsupported();
            }
            return WmmaMemoryInstruction.compile(ic, f);
        }
        org.jptxas.simulator.exec.WarpMma.Spec s = WmmaInstruction.spec(ic.mods);
        if (s == null) {
            org.jptxas.frontend.ptx.isa.WmmaTiles tiles = org.jptxas.frontend.ptx.isa.WmmaTiles.of(ic.mods, true);
            if (tiles == null) {
                throw ic.unsupported();
            }
            return ic.warp(WmmaInstruction.compile(tiles, ic.ops, operands()), t -> 0xffffffffL);
        }
        return ic.warp(WmmaInstruction.compile(org.jptxas.frontend.ptx.isa.WmmaForm.of(ic.mods), s, ic.ops,
                operands()), t -> 0xffffffffL);
    }

    private MmaInstruction.Operands operands() {
        return new MmaInstruction.Operands() {
            @Override
            public Src src(Operand o, PtxType t) throws ProgramException, Unsupported {
                return ic.src(o, t);
            }

            @Override
            public int dst(Operand o) throws ProgramException, Unsupported {
                return ic.dst(o);
            }
        };
    }

    /** One 16-byte matrix row of ldmatrix as four little-endian words, from shared memory. */
    private static int[] matrixRow(ThreadState th, AddressSpace s, long a) {
        long off = a & 0xffffffffL; // a shared-space address is 32-bit (register + offset wraps as in LDSM's Ra + imm)
        if (s == AddressSpace.GENERIC) {
            if (Machine.windowOf(a) != AddressSpace.SHARED) {
                throw new MemoryAccessException(AddressSpace.GENERIC, a, 16,
                        "ldmatrix needs a generic address in the shared window");
            }
            off = a - Machine.SHARED_WINDOW;
        }
        return th.cta.shared.load128(off);
    }
}
