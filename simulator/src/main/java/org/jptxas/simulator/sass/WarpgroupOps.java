package org.jptxas.simulator.sass;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jptxas.simulator.memory.MemoryAccessException;
import org.jptxas.simulator.memory.Region;
import org.jptxas.simulator.numeric.SmallFloats;

/**
 * Hopper's warpgroup multiplies in the emulator: {@code WARPGROUP.ARRIVE}, {@code HGMMA}, {@code WARPGROUP.DEPBAR.LE
 * gsb0, N} and {@code USETMAXREG}.
 *
 * <p><b>What a multiply computes.</b> {@code HGMMA.64xNxK.TYPES Rd, gdesc[URx].flags, Rc[, !UPT][, gsb0]}: D (64 x N)
 * = A (64 x K) B (K x N) + C, over the 128 threads of a warpgroup; warp {@code w} of the group (its warp index in the
 * CTA modulo 4) holds rows 16w..16w+15, so each warp's part depends only on its own registers, A's rows 16w.. and all
 * of B, and is computed when that warp issues the instruction. URx..URx+1 is A's shared-memory matrix descriptor,
 * URx+2..URx+3 B's. The accumulator fragment (f32): for each 8-column slice j, register 4j holds (r, 8j + 2(l % 4)),
 * 4j+1 the next column, 4j+2 and 4j+3 the same columns of row r + 8, with r = l / 4 for lane l (the PTX ISA's
 * wgmma D layout, the mma.m16n8 C layout repeated over N). {@code .negA}/{@code .negB} negate A/B, {@code .tnspA}/
 * {@code .tnspB} read them MN-major, {@code !UPT} drops C (D = A B).
 *
 * <p><b>Descriptors</b> (PTX ISA, "matrix descriptor"): bits 0-13 start address / 16 (a shared-window address),
 * 16-29 leading-dimension byte offset / 16, 32-45 stride-dimension byte offset / 16, 62-63 swizzle (0 none, 1 128 B,
 * 2 64 B, 3 32 B). Element (i, k) of a K-major operand (i the row of A or the column of B) lies at {@code start +
 * (i / 8) SBO + ...}: without swizzle in core matrices of 8 rows of 16 bytes, row i % 8 at 16 (i % 8), K chunks of
 * 16 bytes LBO apart; with swizzle in rows of the swizzle width (128/64/32 B), row i % 8 at width x (i % 8), then the
 * address's 16-byte chunk bits [6:4] XORed with bits [9:7] (masked to the width: the CUTLASS Swizzle<3,4,3>,
 * <2,4,3>, <1,4,3>). MN-major operands: rows along MN of 16 bytes (no swizzle) or the swizzle width, one row per k,
 * k % 8 rows per core block, blocks LBO apart along MN and SBO apart along K. K-major without swizzle and with 128 B
 * swizzle are what the suite's kernels use; the MN-major reading follows the same description and is not yet checked
 * by a kernel whose layout a GPU confirmed.
 *
 * {@code QGMMA.64xNx32.F32.A.B} reads E4M3/E5M2 bytes (A and B each its own type) the same way.
 *
 * <p><b>Numerics</b>: as {@code exec.WarpMma}: every product exact (f16/bf16/tf32/fp8 inputs are exact in double), the
 * products of one instruction summed in k order in double, C added last, the sum rounded once to f32. Tensor cores
 * align and truncate, so the last bits may differ; chained instructions round once each.
 *
 * <p><b>Asynchrony and hazards.</b> A multiply's result lands at the {@code WARPGROUP.DEPBAR} that retires its group
 * (a group is closed by the multiply marked {@code gsb0}; {@code DEPBAR.LE gsb0, N} retires all but the newest N
 * closed groups). Until then its accumulator registers hold {@link #POISON} (a NaN), so code that reads them early
 * computes garbage instead of passing by luck; a write to them before the wait is a fault at the wait, and a warp
 * that exits with multiplies outstanding is a fault (a missing wait). A multiply whose C is the accumulator of an
 * outstanding one (ptxas's chains of HGMMAs on one block) reads that one's result, as the hardware orders them.
 * ARRIVE changes nothing the emulator models; USETMAXREG: {@link #setMaxRegisters}.
 */
final class WarpgroupOps {
    /** What an outstanding multiply's accumulator registers hold: a quiet NaN no computation makes. */
    static final int POISON = 0x7fbadbad;

    /** A warpgroup instruction the program got wrong; the machine turns it into a fault of the warp. */
    static final class WarpgroupFault extends RuntimeException {
        private static final long serialVersionUID = 1L;

        WarpgroupFault(String message) {
            super(message);
        }
    }

    /** One outstanding multiply: its accumulator's registers and each lane's result. */
    private record Pending(int d, int n, int[][] result, long address) {}

    /** A warp's outstanding multiplies: the open group and the closed ones, oldest first. */
    private static final class State {
        List<Pending> open = new ArrayList<>();
        final Deque<List<Pending>> closed = new ArrayDeque<>();

        boolean idle() {
            return open.isEmpty() && closed.isEmpty();
        }
    }

    private final Map<Object, State> states = new IdentityHashMap<>();

    private static final Pattern MULTIPLY = Pattern.compile(
            "[HQ]GMMA\\.64x(\\d+)x(\\d+)((?:\\.[A-Z0-9]+)*) R(\\d+), gdesc\\[UR(\\d+)\\]((?:\\.\\w+)*), (RZ|R\\d+)"
                    + "(?:, (!?)UP(T|\\d))?(, gsb0)?\\s*;?\\s*");

    /**
     * Executes {@code op} for warp {@code warp}: {@code regs[lane]} are its lanes' register files (all 32 lanes must
     * execute it), {@code ur}/{@code up} its uniform registers, {@code warpInGroup} its place in the warpgroup.
     *
     * @return false when {@code op} is a form the emulator does not implement
     */
    boolean execute(SassOp op, Object warp, int[][] regs, int[] ur, boolean[] up, int warpInGroup, Region shared) {
        String text = op.text().strip();
        switch (op.opcode()) {
            case "USETMAXREG" -> {
                return unguarded(op) && setMaxRegisters(op, regs, up);
            }
            case "WARPGROUP" -> {
                if (op.has("ARRIVE")) {
                    return true;
                }
                // WARPGROUP.DEPBAR.LE gsb0, N
                List<SassOperand> o = op.operands();
                if (!unguarded(op) || !op.modifiers().equals(List.of("DEPBAR", "LE")) || o.size() != 2
                        || !(o.get(0) instanceof SassOperand.Other g && g.text().equals("gsb0"))
                        || !(o.get(1) instanceof SassOperand.Imm n && !n.floating())) {
                    return false;
                }
                retire(warp, regs, (int) n.bits());
                return true;
            }
            case "HGMMA", "QGMMA" -> {
                Matcher m = MULTIPLY.matcher(text);
                return m.matches() && multiply(op, m, warp, regs, ur, up, warpInGroup, shared);
            }
            default -> {
                return false;
            }
        }
    }

    /** Whether the instruction runs without a guard (the forms the emulator implements have none). */
    private static boolean unguarded(SassOp op) {
        return op.guard() == 7 && !op.guardNegated() && !op.guardUniform();
    }

    /**
     * {@code USETMAXREG.DEALLOC.CTAPOOL N}: the warp's registers from RN on go back to the pool, so they hold
     * {@link #POISON} (code that keeps a value there across the instruction computes garbage);
     * {@code USETMAXREG.TRY_ALLOC.CTAPOOL UPp, N} always succeeds (UPp true): the emulator does not model the pool, and
     * registers granted anew hold what they held (poison after a DEALLOC).
     */
    private static boolean setMaxRegisters(SassOp op, int[][] regs, boolean[] up) {
        List<SassOperand> o = op.operands();
        boolean allocates = op.modifiers().equals(List.of("TRY_ALLOC", "CTAPOOL"));
        if (!allocates && !op.modifiers().equals(List.of("DEALLOC", "CTAPOOL"))) {
            return false;
        }
        int p = o.size() == 2 && o.get(0) instanceof SassOperand.UPred u && !u.negated() && u.index() < 7 ? u.index() : -1;
        int last = p >= 0 ? 1 : 0;
        if (o.size() != last + 1 || !(o.get(last) instanceof SassOperand.Imm n) || n.floating()
                || allocates && p < 0) {
            return false;
        }
        int count = (int) n.bits();
        if (allocates) {
            up[p] = true;
            return true;
        }
        for (int[] lane : regs) {
            if (lane == null) {
                continue;
            }
            // the file holds the registers the code names, then RZ's slots: those stay
            for (int r = count; r < DecodedOp.zeroSlotOfFile(lane.length); r++) {
                lane[r] = POISON;
            }
        }
        return true;
    }

    /** A warp exits: outstanding multiplies mean a missing {@code wgmma.wait_group}. */
    void exit(Object warp) {
        State s = states.remove(warp);
        if (s != null && !s.idle()) {
            Pending p = !s.open.isEmpty() ? s.open.get(0) : s.closed.peekFirst().get(0);
            throw new WarpgroupFault("the warp exits while the warpgroup multiply at 0x" + Long.toHexString(p.address())
                    + " (accumulator R" + p.d() + "..R" + (p.d() + p.n() - 1) + ") is outstanding: no"
                    + " WARPGROUP.DEPBAR (wgmma.wait_group) retires it");
        }
    }

    private boolean multiply(SassOp op, Matcher m, Object warp, int[][] regs, int[] ur, boolean[] up, int w,
                             Region shared) {
        int n = Integer.parseInt(m.group(1));
        int k = Integer.parseInt(m.group(2));
        List<String> types = List.of(m.group(3).isEmpty() ? new String[0] : m.group(3).substring(1).split("\\."));
        int d = Integer.parseInt(m.group(4));
        int u = Integer.parseInt(m.group(5));
        String flags = m.group(6);
        int c = m.group(7).equals("RZ") ? -1 : Integer.parseInt(m.group(7).substring(1));
        boolean predNot = "!".equals(m.group(8));
        boolean scaleD = (m.group(9) == null || m.group(9).equals("T") ? true : up[m.group(9).charAt(0) - '0']) != predNot;
        boolean gsb0 = m.group(10) != null;
        // element type: F16 (k16), BF16 (k16), TF32 (k8), E4M3/E5M2 for A and B (QGMMA, k32); f32 accumulation only
        int esize;
        java.util.function.IntToDoubleFunction elem;
        java.util.function.IntToDoubleFunction elemB = null;
        if (op.opcode().equals("QGMMA")) {
            if (types.size() != 3 || !types.get(0).equals("F32") || k != 32) {
                return false;
            }
            elem = fp8(types.get(1));
            elemB = fp8(types.get(2));
            if (elem == null || elemB == null) {
                return false;
            }
            esize = 1;
        } else if (types.equals(List.of("F32")) && k == 16) {
            esize = 2;
            elem = b -> SmallFloats.halfToFloat(b & 0xffff);
        } else if (types.equals(List.of("F32", "BF16")) && k == 16) {
            esize = 2;
            elem = b -> SmallFloats.bf16ToFloat(b & 0xffff);
        } else if (types.equals(List.of("F32", "TF32")) && k == 8) {
            esize = 4;
            elem = b -> Float.intBitsToFloat(b & 0xffffe000);
        } else {
            return false;
        }
        if (elemB == null) {
            elemB = elem; // one type for A and B
        }
        if ((c != d && c != -1) || (c == -1 && !(m.group(9) != null && predNot)) || u % 4 != 0 || d + n / 2 > 255) {
            return false;
        }
        long descA = (ur[u] & 0xffffffffL) | (long) ur[u + 1] << 32;
        long descB = (ur[u + 2] & 0xffffffffL) | (long) ur[u + 3] << 32;
        boolean tA = flags.contains(".tnspA"), tB = flags.contains(".tnspB");
        double sA = flags.contains(".negA") ? -1 : 1, sB = flags.contains(".negB") ? -1 : 1;
        double[][] a = new double[16][k];
        double[][] b = new double[n][k];
        try {
            for (int i = 0; i < 16; i++) {
                for (int q = 0; q < k; q++) {
                    a[i][q] = sA * elem.applyAsDouble(load(shared, descA, 16 * w + i, q, esize, tA));
                }
            }
            for (int j = 0; j < n; j++) {
                for (int q = 0; q < k; q++) {
                    b[j][q] = sB * elemB.applyAsDouble(load(shared, descB, j, q, esize, tB));
                }
            }
        } catch (MemoryAccessException e) {
            throw new WarpgroupFault("a warpgroup multiply's matrix descriptor points outside shared memory: "
                    + e.getMessage());
        }
        State s = states.computeIfAbsent(warp, x -> new State());
        Pending chained = latest(s, d, n / 2);
        int regsPerLane = n / 2;
        int[][] result = new int[32][regsPerLane];
        for (int l = 0; l < 32; l++) {
            for (int r = 0; r < regsPerLane; r++) {
                int row = l / 4 + ((r & 2) != 0 ? 8 : 0);
                int col = 8 * (r / 4) + 2 * (l % 4) + (r & 1);
                double sum = 0;
                for (int q = 0; q < k; q++) {
                    sum += a[row][q] * b[col][q];
                }
                if (scaleD) {
                    int cbits = chained != null ? chained.result()[l][r] : regs[l][c + r];
                    if (chained == null && cbits == POISON) {
                        throw new WarpgroupFault("HGMMA at 0x" + Long.toHexString(op.address()) + " reads R" + (c + r)
                                + ", the accumulator of a multiply not yet retired by WARPGROUP.DEPBAR");
                    }
                    sum += Float.intBitsToFloat(cbits);
                }
                result[l][r] = Float.floatToRawIntBits((float) sum);
            }
        }
        for (int l = 0; l < 32; l++) {
            for (int r = 0; r < regsPerLane; r++) {
                regs[l][d + r] = POISON;
            }
        }
        s.open.add(new Pending(d, regsPerLane, result, op.address()));
        if (gsb0) {
            s.closed.addLast(s.open);
            s.open = new ArrayList<>();
        }
        return true;
    }

    /** An 8-bit float type's value of a byte (exact through binary16), or null for another token. */
    private static java.util.function.IntToDoubleFunction fp8(String type) {
        return switch (type) {
            case "E4M3" -> b -> SmallFloats.halfToFloat(SmallFloats.fp8ToHalfPair(b & 0xff, true, false) & 0xffff);
            case "E5M2" -> b -> SmallFloats.halfToFloat(SmallFloats.fp8ToHalfPair(b & 0xff, false, false) & 0xffff);
            default -> null;
        };
    }

    /** The newest outstanding multiply on exactly registers d..d+n-1, or null; a partial overlap is a fault. */
    private static Pending latest(State s, int d, int n) {
        Pending found = null;
        List<List<Pending>> groups = new ArrayList<>(s.closed);
        groups.add(s.open);
        for (List<Pending> g : groups) {
            for (Pending p : g) {
                if (p.d() == d && p.n() == n) {
                    found = p;
                } else if (p.d() < d + n && d < p.d() + p.n()) {
                    throw new WarpgroupFault("a warpgroup multiply's accumulator R" + d + "..R" + (d + n - 1)
                            + " overlaps the outstanding one at R" + p.d() + "..R" + (p.d() + p.n() - 1));
                }
            }
        }
        return found;
    }

    /** {@code WARPGROUP.DEPBAR.LE gsb0, keep}: the results of all closed groups but the newest {@code keep} land. */
    private void retire(Object warp, int[][] regs, int keep) {
        State s = states.get(warp);
        if (s == null) {
            return;
        }
        while (s.closed.size() > keep) {
            List<Pending> g = s.closed.removeFirst();
            for (Pending p : g) {
                for (int l = 0; l < 32; l++) {
                    for (int r = 0; r < p.n(); r++) {
                        if (regs[l][p.d() + r] != POISON) {
                            throw new WarpgroupFault("R" + (p.d() + r) + " of lane " + l + ", the accumulator of the"
                                    + " warpgroup multiply at 0x" + Long.toHexString(p.address()) + ", was written"
                                    + " before the WARPGROUP.DEPBAR that retires it");
                        }
                    }
                }
            }
            for (Pending p : g) {
                if (stillOutstanding(s, p)) {
                    continue; // a later multiply of the chain writes these registers when it retires
                }
                for (int l = 0; l < 32; l++) {
                    System.arraycopy(p.result()[l], 0, regs[l], p.d(), p.n());
                }
            }
        }
        if (s.idle()) {
            states.remove(warp);
        }
    }

    private static boolean stillOutstanding(State s, Pending p) {
        for (List<Pending> g : s.closed) {
            for (Pending q : g) {
                if (q.d() == p.d()) {
                    return true;
                }
            }
        }
        for (Pending q : s.open) {
            if (q.d() == p.d()) {
                return true;
            }
        }
        return false;
    }

    /**
     * The bits of element (i, k) of a descriptor's matrix: i is the M (A) or N (B) index, {@code mnMajor} the
     * transposed layout. See the class comment for the layouts.
     */
    static int load(Region shared, long desc, int i, int k, int esize, boolean mnMajor) {
        long start = (desc & 0x3fff) << 4;
        long lbo = (desc >>> 16 & 0x3fff) << 4;
        long sbo = (desc >>> 32 & 0x3fff) << 4;
        int mode = (int) (desc >>> 62 & 3);
        int width = mode == 0 ? 16 : mode == 1 ? 128 : mode == 2 ? 64 : 32;
        long addr;
        if (!mnMajor) {
            int perRow = width / esize; // elements of one row along K
            long kBytes = (long) (k % perRow) * esize;
            addr = start + (i / 8) * sbo + (long) (i % 8) * width + (k / perRow) * lbo + kBytes;
        } else {
            int perRow = width / esize; // elements of one row along MN
            addr = start + (i / perRow) * lbo + (k / 8) * sbo + (long) (k % 8) * width + (long) (i % perRow) * esize;
        }
        if (mode != 0) {
            long bits = mode == 1 ? 7 : mode == 2 ? 3 : 1;
            addr ^= (addr >>> 7 & bits) << 4;
        }
        return esize == 1 ? shared.load8(addr) : esize == 2 ? shared.load16(addr) : shared.load32(addr);
    }
}
