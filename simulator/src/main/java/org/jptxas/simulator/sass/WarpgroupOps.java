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
import org.jptxas.simulator.exec.WarpgroupMma;

/**
 * Hopper's warpgroup multiplies in the emulator: {@code WARPGROUP.ARRIVE}, {@code HGMMA}, {@code WARPGROUP.DEPBAR.LE
 * gsb0, N} and {@code USETMAXREG}.
 *
 * <p><b>What a multiply computes.</b> {@code HGMMA.64xNxK.TYPES Rd, gdesc[URx].flags, Rc[, !UPT][, gsb0]}: D (64 x N)
 * = A (64 x K) B (K x N) + C, over the 128 threads of a warpgroup, each warp's part computed when that warp issues the
 * instruction ({@link WarpgroupMma}: descriptors, fragment layout and numerics). URx..URx+1 is A's shared-memory
 * matrix descriptor, URx+2..URx+3 B's. {@code .negA}/{@code .negB} negate A/B, {@code .tnspA}/{@code .tnspB} read
 * them MN-major, {@code !UPT} drops C (D = A B). {@code QGMMA.64xNx32.F32.A.B} reads E4M3/E5M2 bytes (A and B each
 * its own type) the same way, {@code IGMMA.64xNx32.A.B[.SAT]} s8/u8 bytes into s32 accumulators (wrapping, or clamped
 * with .SAT), {@code BGMMA.64xNx256.AND.POPC} bits (the popcount of A AND B). {@code .F16} accumulators hold two
 * packed halves a register. With A in registers ({@code HGMMA... Rd, [-]Ra, gdesc[URx].flags, Rc}) Ra..Ra+3 hold the
 * warp's A fragment and B's descriptor is still URx+2..URx+3 (ptxas leaves URx..URx+1 holding other values).
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
            "[HQIB]GMMA\\.64x(?<n>\\d+)x(?<k>\\d+)(?<types>(?:\\.[A-Z0-9]+)*) R(?<d>\\d+), (?:(?<negA>-?)R(?<a>\\d+), )?"
                    + "gdesc\\[UR(?<u>\\d+)\\](?<flags>(?:\\.\\w+)*), (?<c>RZ|R\\d+)(?:, (?<not>!?)UP(?<p>T|\\d))?(?<gsb0>, gsb0)?"
                    + "\\s*;?\\s*");

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
            case "HGMMA", "QGMMA", "IGMMA", "BGMMA" -> {
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
        int n = Integer.parseInt(m.group("n"));
        int k = Integer.parseInt(m.group("k"));
        String t = m.group("types");
        List<String> types = List.of(t.isEmpty() ? new String[0] : t.substring(1).split("\\."));
        int d = Integer.parseInt(m.group("d"));
        int u = Integer.parseInt(m.group("u"));
        String flags = m.group("flags");
        int c = m.group("c").equals("RZ") ? -1 : Integer.parseInt(m.group("c").substring(1));
        boolean predNot = "!".equals(m.group("not"));
        String p = m.group("p");
        boolean scaleD = (p == null || p.equals("T") ? true : up[p.charAt(0) - '0']) != predNot;
        boolean gsb0 = m.group("gsb0") != null;
        Operands kind = Operands.of(op.opcode(), types, k);
        if (kind == null) {
            return false;
        }
        WarpgroupMma.Accumulator acc = kind.accumulator();
        int regsPerLane = acc.registers(n);
        boolean regA = m.group("a") != null;
        if ((c != d && c != -1) || (c == -1 && !(p != null && predNot)) || u % 4 != 0
                || d + regsPerLane > 255) {
            return false;
        }
        // B's descriptor is URx+2..URx+3 with A in registers too (ptxas leaves URx..URx+1 to other values)
        long descA = regA ? 0 : (ur[u] & 0xffffffffL) | (long) ur[u + 1] << 32;
        long descB = (ur[u + 2] & 0xffffffffL) | (long) ur[u + 3] << 32;
        boolean tA = flags.contains(".tnspA"), tB = flags.contains(".tnspB");
        double sA = flags.contains(".negA") || "-".equals(m.group("negA")) ? -1 : 1;
        double sB = flags.contains(".negB") ? -1 : 1;
        int kElements = kind.typeA().equals("B1") ? k / 8 : k; // b1: bytes of eight elements
        double[][] a;
        double[][] b;
        try {
            if (regA) {
                int ra = Integer.parseInt(m.group("a"));
                int[][] words = new int[32][4];
                for (int l = 0; l < 32; l++) {
                    System.arraycopy(regs[l], ra, words[l], 0, 4);
                }
                a = WarpgroupMma.registerA(words, kind.typeA(), sA);
            } else {
                a = WarpgroupMma.operand(shared, descA, 16 * w, 16, kElements, kind.typeA(), tA, sA);
            }
            b = WarpgroupMma.operand(shared, descB, 0, n, kElements, kind.typeB(), tB, sB);
        } catch (MemoryAccessException e) {
            throw new WarpgroupFault("a warpgroup multiply's matrix descriptor points outside shared memory: "
                    + e.getMessage());
        }
        State s = states.computeIfAbsent(warp, x -> new State());
        Pending chained = latest(s, d, regsPerLane);
        int[][] result = new int[32][regsPerLane];
        for (int l = 0; l < 32; l++) {
            for (int r = 0; r < regsPerLane; r++) {
                int cbits = 0;
                if (scaleD) {
                    cbits = chained != null ? chained.result()[l][r] : regs[l][c + r];
                    if (chained == null && cbits == POISON) {
                        throw new WarpgroupFault(op.opcode() + " at 0x" + Long.toHexString(op.address()) + " reads R"
                                + (c + r) + ", the accumulator of a multiply not yet retired by WARPGROUP.DEPBAR");
                    }
                }
                result[l][r] = acc.element(a, b, l, r, scaleD, cbits);
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

    /** A multiply's element types as the emulator reads them and its accumulator. */
    record Operands(String typeA, String typeB, WarpgroupMma.Accumulator accumulator) {
        /** The operands of {@code opcode.64xNxK.types}, or null for a combination the emulator does not model. */
        static Operands of(String opcode, List<String> types, int k) {
            WarpgroupMma.Accumulator f = types.isEmpty() ? null
                    : types.get(0).equals("F32") ? WarpgroupMma.Accumulator.F32
                    : types.get(0).equals("F16") ? WarpgroupMma.Accumulator.F16 : null;
            switch (opcode) {
                case "QGMMA":
                    return types.size() == 3 && f != null && k == 32 && eightBitFloat(types.get(1))
                            && eightBitFloat(types.get(2)) ? new Operands(types.get(1), types.get(2), f) : null;
                case "HGMMA":
                    if (types.size() == 1 && f != null && k == 16) {
                        return new Operands("F16", "F16", f);
                    }
                    if (types.equals(List.of("F32", "BF16")) && k == 16 || types.equals(List.of("F32", "TF32")) && k == 8) {
                        return new Operands(types.get(1), types.get(1), f);
                    }
                    return null;
                case "IGMMA":
                    boolean sat = types.size() == 3 && types.get(2).equals("SAT");
                    return k == 32 && (types.size() == 2 || sat) && integer(types.get(0)) && integer(types.get(1))
                            ? new Operands(types.get(0), types.get(1), sat ? WarpgroupMma.Accumulator.S32_SATURATING
                                    : WarpgroupMma.Accumulator.S32) : null;
                case "BGMMA":
                    return k == 256 && types.equals(List.of("AND", "POPC"))
                            ? new Operands("B1", "B1", WarpgroupMma.Accumulator.S32_POPC) : null;
                default:
                    return null;
            }
        }

        private static boolean eightBitFloat(String t) {
            return t.equals("E4M3") || t.equals("E5M2");
        }

        private static boolean integer(String t) {
            return t.equals("S8") || t.equals("U8");
        }
    }
}
