package org.jptxas.simulator.ptx;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.simulator.exec.Fault;
import org.jptxas.simulator.exec.WarpgroupMma;
import org.jptxas.simulator.memory.MemoryAccessException;

/**
 * Hopper's warpgroup multiply in the interpreter: {@code wgmma.fence}, {@code wgmma.mma_async.sync.aligned.m64nNkK
 * .f32.ATYPE.BTYPE d, a, b-desc, scale-d[, imm-scale-a, imm-scale-b[, imm-trans-a], imm-trans-b]} (A from a
 * descriptor or from four registers), {@code wgmma.commit_group} and {@code wgmma.wait_group N}.
 *
 * <p>Warp {@code w} of a warpgroup holds rows 16w..16w+15 of D, so each warp computes its part alone when it
 * executes the multiply (the whole warp must), reading shared memory then, with {@link WarpgroupMma}'s arithmetic
 * (the SASS emulator's). The result is held back until the {@code wait_group} that retires its group: meanwhile the
 * accumulator registers hold a NaN no arithmetic makes ({@link #POISON}), so a program that reads them without the
 * wait computes garbage; a multiply whose accumulator is that of an outstanding one reads the outstanding result, as
 * the hardware orders a chain. Accumulators of f32, packed f16 and s32 (s8/u8 with or without .satfinite, b1 AND.POPC).
 */
final class WgmmaInstruction {
    private WgmmaInstruction() {}

    /** What an outstanding multiply's accumulator registers hold until its wait. */
    static final int POISON = 0x7fbadbad;

    /** One outstanding multiply of a warp: its accumulator registers and each lane's result. */
    private record Pending(int[] regs, int[][] result) {}

    /** A warp's outstanding multiplies: the open group and the committed ones, oldest first. */
    static final class Outstanding {
        List<Pending> open = new ArrayList<>();
        final Deque<List<Pending>> committed = new ArrayDeque<>();
    }

    static Insn compile(InstructionCompiler ic) throws ProgramException, InstructionCompiler.Unsupported {
        if (ic.has("fence")) {
            return ic.simple(t -> { });
        }
        if (ic.has("commit_group")) {
            return ic.warp((lanes, group) -> {
                Outstanding o = state(lanes);
                if (!o.open.isEmpty()) {
                    o.committed.addLast(o.open);
                    o.open = new ArrayList<>();
                }
            }, null);
        }
        if (ic.has("wait_group")) {
            Src n = ic.src(ic.op(0), PtxType.U32);
            return ic.warp((lanes, group) -> retire(lanes, (int) n.get(first(lanes, group))), null);
        }
        if (ic.has("mma_async")) {
            return multiply(ic);
        }
        throw ic.unsupported();
    }

    private static Insn multiply(InstructionCompiler ic) throws ProgramException, InstructionCompiler.Unsupported {
        int n = -1, k = -1;
        List<String> types = new ArrayList<>();
        for (String m : ic.mods) {
            if (m.matches("m64n[0-9]+k[0-9]+")) {
                n = Integer.parseInt(m.substring(4, m.indexOf('k')));
                k = Integer.parseInt(m.substring(m.indexOf('k') + 1));
            } else if (!m.equals("mma_async") && !m.equals("sync") && !m.equals("aligned")) {
                types.add(m.toLowerCase(Locale.ROOT));
            }
        }
        boolean saturate = types.remove("satfinite");
        boolean popc = types.equals(List.of("s32", "b1", "b1", "and", "popc"));
        if (popc) {
            types = List.of("s32", "b1", "b1");
        }
        if (types.size() != 3 || n < 8 || n > 256 || n % 8 != 0) {
            throw ic.unsupported();
        }
        String typeA = types.get(1), typeB = types.get(2);
        WarpgroupMma.Accumulator acc = switch (types.get(0)) {
            case "f32" -> WarpgroupMma.Accumulator.F32;
            case "f16" -> WarpgroupMma.Accumulator.F16;
            case "s32" -> popc ? WarpgroupMma.Accumulator.S32_POPC
                    : saturate ? WarpgroupMma.Accumulator.S32_SATURATING : WarpgroupMma.Accumulator.S32;
            default -> null;
        };
        boolean integer = acc != WarpgroupMma.Accumulator.F32 && acc != WarpgroupMma.Accumulator.F16;
        // b1: bytes of eight elements, K 256 (32 bytes)
        int kElements = popc ? k / 8 : k;
        if (acc == null || integer != (typeA.endsWith("8") && typeA.charAt(0) != 'e' || popc)
                || WarpgroupMma.decoder(typeA) == null || WarpgroupMma.decoder(typeB) == null
                || WarpgroupMma.elementBytes(typeA) * kElements != 32
                || WarpgroupMma.elementBytes(typeB) * kElements != 32) {
            throw ic.unsupported();
        }
        boolean regA = ic.op(1) instanceof Operand.Vector;
        boolean sixteenBit = WarpgroupMma.elementBytes(typeA) == 2;
        // imm-scale-a/b for the floating types, imm-trans-a (descriptor A) and imm-trans-b for 16-bit ones
        int immediates = integer ? 0 : 2 + (sixteenBit ? (regA ? 1 : 2) : 0);
        if (ic.ops.size() != 4 + immediates || regA && popc) {
            throw ic.unsupported();
        }
        List<Operand> dOps = ((Operand.Vector) ic.op(0)).elements();
        if (dOps.size() != acc.registers(n)) {
            throw ic.fc.error(ic.line(), "wgmma m64n" + n + "." + types.get(0) + " needs " + acc.registers(n)
                    + " accumulator registers, not " + dOps.size());
        }
        int[] d = new int[dOps.size()];
        for (int i = 0; i < d.length; i++) {
            d[i] = ic.dst(dOps.get(i));
        }
        Src[] a;
        if (regA) {
            List<Operand> aOps = ((Operand.Vector) ic.op(1)).elements();
            if (aOps.size() != 4) {
                throw ic.unsupported();
            }
            a = new Src[4];
            for (int i = 0; i < 4; i++) {
                a[i] = ic.src(aOps.get(i), PtxType.B32);
            }
        } else {
            a = new Src[] {ic.src(ic.op(1), PtxType.B64)};
        }
        Src descB = ic.src(ic.op(2), PtxType.B64);
        Src scaleD = ic.src(ic.op(3), PtxType.PRED);
        Src[] imm = new Src[immediates];
        for (int i = 0; i < immediates; i++) {
            imm[i] = ic.src(ic.op(4 + i), PtxType.S32);
        }
        int kk = kElements;
        int nn = n;
        String where = "line " + ic.line() + " (" + ic.text() + ")";
        return ic.warp((lanes, group) -> {
            if (group != -1) {
                throw new InterpreterError("wgmma.mma_async needs all 32 lanes of the warp (executing: 0x"
                        + Integer.toHexString(group) + ")");
            }
            ThreadState t0 = lanes[0];
            double signA = immediates > 0 && (int) imm[0].get(t0) < 0 ? -1 : 1;
            double signB = immediates > 0 && (int) imm[1].get(t0) < 0 ? -1 : 1;
            boolean transA = !regA && sixteenBit && imm[2].get(t0) != 0;
            boolean transB = sixteenBit && immediates > 0 && imm[immediates - 1].get(t0) != 0;
            double[][] ma;
            double[][] mb;
            try {
                if (regA) {
                    int[][] words = new int[32][4];
                    for (int l = 0; l < 32; l++) {
                        for (int i = 0; i < 4; i++) {
                            words[l][i] = (int) a[i].get(lanes[l]);
                        }
                    }
                    ma = WarpgroupMma.registerA(words, typeA, signA);
                } else {
                    ma = WarpgroupMma.operand(t0.cta.shared, a[0].get(t0), 16 * (t0.warp % 4), 16, kk, typeA, transA,
                            signA);
                }
                mb = WarpgroupMma.operand(t0.cta.shared, descB.get(t0), 0, nn, kk, typeB, transB, signB);
            } catch (MemoryAccessException e) {
                throw new FaultException(new Fault.MemoryFault(t0.ref(), where, e));
            }
            Outstanding o = state(lanes);
            Pending chained = latest(o, d);
            boolean accumulate = (scaleD.get(t0) & 1) != 0;
            int[][] result = new int[32][d.length];
            for (int l = 0; l < 32; l++) {
                for (int r = 0; r < d.length; r++) {
                    long bits = !accumulate ? 0 : chained != null ? chained.result()[l][r] : lanes[l].frame.regs[d[r]];
                    result[l][r] = acc.element(ma, mb, l, r, accumulate, (int) bits);
                }
            }
            for (int l = 0; l < 32; l++) {
                for (int r : d) {
                    Values.write(lanes[l], r, POISON);
                }
            }
            o.open.add(new Pending(d, result));
        }, t -> 0xffffffffL);
    }

    /** The warp's outstanding multiplies (kept by its block, by warp number). */
    private static Outstanding state(ThreadState[] lanes) {
        ThreadState t = lanes[0];
        return t.cta.warpgroupMultiplies.computeIfAbsent(t.warp, w -> new Outstanding());
    }

    private static ThreadState first(ThreadState[] lanes, int group) {
        return lanes[Integer.numberOfTrailingZeros(group)];
    }

    /** The newest outstanding multiply on exactly the registers {@code d}, or null. */
    private static Pending latest(Outstanding o, int[] d) {
        Pending found = null;
        for (List<Pending> g : o.committed) {
            for (Pending p : g) {
                found = java.util.Arrays.equals(p.regs(), d) ? p : found;
            }
        }
        for (Pending p : o.open) {
            found = java.util.Arrays.equals(p.regs(), d) ? p : found;
        }
        return found;
    }

    /** {@code wgmma.wait_group keep}: the results of all committed groups but the newest {@code keep} land. */
    private static void retire(ThreadState[] lanes, int keep) {
        Outstanding o = state(lanes);
        while (o.committed.size() > keep) {
            for (Pending p : o.committed.removeFirst()) {
                if (latest(o, p.regs()) != null) {
                    continue; // a later multiply of the chain lands on these registers
                }
                for (int l = 0; l < 32; l++) {
                    for (int r = 0; r < p.regs().length; r++) {
                        Values.write(lanes[l], p.regs()[r], Integer.toUnsignedLong(p.result()[l][r]));
                    }
                }
            }
        }
    }
}
