package org.jptxas.simulator.sass;

import java.util.List;
import org.jptxas.simulator.exec.BulkCopies;
import org.jptxas.simulator.exec.BulkReduction;
import org.jptxas.simulator.exec.Fault;
import org.jptxas.simulator.exec.Mbarrier;
import org.jptxas.simulator.exec.TensorMap;
import org.jptxas.simulator.memory.GlobalMemory;
import org.jptxas.simulator.memory.Region;
import org.jptxas.simulator.sass.SassOperand.Mem;
import org.jptxas.simulator.sass.SassOperand.Pred;
import org.jptxas.simulator.sass.SassOperand.Reg;
import org.jptxas.simulator.sass.SassOperand.UReg;

/**
 * Hopper's asynchronous barriers and copies in the SASS emulator, for one block.
 *
 * <p><b>mbarrier</b> ({@code SYNCS}): the barrier is the 64-bit word in shared memory that {@code SYNCS.EXCH.64}
 * initializes ({@link Mbarrier}'s layout). {@code SYNCS.ARRIVE.TRANS64} arrives (.A1T0: one arrival;
 * .ART0: Rb arrivals; with .OPTOUT (arrive_drop) the expected count of later phases drops by as many; plain: one
 * arrival and Rb expected bytes; .OPTOUT alone (arrive_drop.expect_tx): Rb expected bytes and one dropped arrival; .RED.A0TR: Rb expected bytes; .RED.A0TX: Rb bytes
 * completed; .RED.A0T1: one expected transaction, which {@code ARRIVES.LDGSTSBAR.64.TRANSCNT}'s copies complete) and returns the old word; with {@code .RED} the barrier may be another block's of the cluster (the rank in
 * the address's top byte, as {@code mapa} puts it) and nothing is returned; the phase completes (bit 63 flips, the counts reload) when no arrival and no
 * byte is pending. {@code SYNCS.PHASECHK.TRANS64[.TRYWAIT] P, [a], Rp} sets P when the phase differs from bit 31 of
 * Rp (a state token's high word or a parity shifted to bit 31). More arrivals than expected stop the launch.
 *
 * <p><b>Bulk copies</b>: {@code UBLKCP.S.G [URs], [URg], URn} (global to shared, barrier in URs+1, 16·(URn & 0xffff)
 * bytes; {@code .MULTICAST}: into each block of the cluster whose rank is set in URn's high half, at the same
 * offsets) reads global memory when issued but lands in shared memory only when a thread checks that barrier's phase
 * ({@code SYNCS.PHASECHK}): then its bytes complete their transaction. A kernel that reads the destination without
 * waiting on the barrier reads what was there before. {@code UBLKCP.G.S} (shared to global, bulk_group) copies when
 * issued; {@code UTMACMDFLUSH}, {@code UBLKPF}, {@code UTMACCTL} are no-ops here (the wait of a bulk group,
 * {@code DEPBAR.LE SB0, n}, then has nothing left to wait for). {@code UTMALDG}/{@code UTMASTG} (tensor copies, tile
 * mode) take their box from the tensor map ({@link TensorMap}) and complete and land as UBLKCP does. The bulk
 * reductions {@code UBLKRED.G.S} and {@code UTMAREDG} reduce into global memory when issued, as UBLKCP.G.S copies
 * ({@link BulkReduction}); the tensor prefetch {@code UTMAPF} is a no-op.
 *
 * <p>Also {@code ELECT Pd, URd, Pm} (the lowest active lane with Pm) and {@code STSM} (the inverse of LDSM).
 */
final class HopperAsyncOps {
    private final Region shared;
    private final GlobalMemory global;
    private final SassMachine machine;
    /** Bulk copies in flight on their barriers. */
    private final BulkCopies copies = new BulkCopies();

    HopperAsyncOps(Region shared, GlobalMemory global, SassMachine machine) {
        this.shared = shared;
        this.global = global;
        this.machine = machine;
    }

    /** Whether this state belongs to the block whose shared memory is {@code region}. */
    boolean serves(Region region) {
        return region == shared;
    }

    /** The stop for an instruction the architecture leaves undefined here (a bad barrier, an overflow, ...). */
    private SassMachine.Stop invalid(SassMachine.Thread t, SassOp op, String why) {
        return new SassMachine.Stop(new Fault.InvalidExecution(machine.ref(t), op.where(), why));
    }

    private static SassMachine.Stop unimplemented(SassOp op) {
        return new SassMachine.Stop(new Fault.Unimplemented(op.fullName(), op.where()));
    }

    /** SYNCS for one thread (the machine's step). */
    void step(SassOp op, SassMachine.Thread t, SassMachine.Warp w, IntRead read) {
        try {
            if (!syncs(op, t, w, read)) {
                throw unimplemented(op);
            }
        } catch (Overflow e) {
            throw invalid(t, op, e.getMessage());
        }
        t.pc++;
    }

    /**
     * {@code ARRIVES.LDGSTSBAR.64.TRANSCNT|ARVCNT [a]} (cp.async.mbarrier.arrive) for one thread: the thread's LDGSTS
     * copies in flight complete on the barrier, landing when its phase is checked; their completion completes one
     * transaction (TRANSCNT, after ptxas's SYNCS .A0T1 expected it) or is one arrival (ARVCNT, .noinc).
     */
    void arriveOnCopies(SassOp op, SassMachine.Thread t, SassMachine.Warp w) {
        List<SassOperand> o = op.operands();
        boolean trans = op.has("TRANSCNT");
        if (!op.has("LDGSTSBAR") || !op.has("64") || trans == op.has("ARVCNT") || o.size() != 1
                || !(o.get(0) instanceof Mem m)) {
            throw unimplemented(op);
        }
        if (t.copies == null) {
            t.copies = new org.jptxas.simulator.exec.AsyncCopies();
        }
        t.copies.moveTo(copies, ownOffset(sharedAddress(m, t, w)), trans ? 0 : 1, trans ? -1 : 0);
        t.pc++;
    }

    /** ELECT and STSM over the active lanes of a group (the machine advances their pcs). */
    void collective(SassOp op, SassMachine.Thread[] threads, int base, int count, int active, SassMachine.Warp w) {
        SassMachine.Thread[] lanes = new SassMachine.Thread[count];
        for (int l = 0; l < count; l++) {
            lanes[l] = (active >>> l & 1) != 0 ? threads[base + l] : null;
        }
        if (op.opcode().equals("STSM")) {
            if (active != 0) {
                stsm(op, lanes, w);
            }
            return;
        }
        SassOperand member = op.operands().get(2);
        int candidates = 0;
        for (int l = 0; l < count; l++) {
            if (lanes[l] != null && (!(member instanceof Pred m) || m.index() == 7 || lanes[l].p[m.index()] != m.negated())) {
                candidates |= 1 << l;
            }
        }
        elect(op, lanes, candidates, w);
    }

    static boolean isBranchAny(SassOp op) {
        return op.opcode().equals("BRA") && op.has("U") && op.has("ANY") && op.operands().size() == 1
                && op.operands().get(0) instanceof SassOperand.Target;
    }

    /** {@code @P BRA.U.ANY t}: every thread of the group goes to t when P holds in any of them. */
    static void branchAny(SassOp op, SassMachine.Thread[] threads, int base, int count, int group) {
        boolean any = false;
        for (int l = 0; l < count; l++) {
            if ((group >>> l & 1) != 0) {
                any |= threads[base + l].p[op.guard()] != op.guardNegated();
            }
        }
        int target = (int) (((SassOperand.Target) op.operands().get(0)).address() / 16);
        for (int l = 0; l < count; l++) {
            if ((group >>> l & 1) != 0) {
                SassMachine.Thread t = threads[base + l];
                t.pc = any ? target : t.pc + 1;
            }
        }
    }

    /** More arrivals than a phase expects (undefined in PTX): stops the launch. */
    private static final class Overflow extends RuntimeException {
        Overflow(String message) {
            super(message, null, false, false);
        }
    }

    /** A 32-bit shared-window address: register + uniform register + offset. */
    static long sharedAddress(Mem m, SassMachine.Thread t, SassMachine.Warp w) {
        long a = m.offset();
        if (m.reg() >= 0 && m.reg() != 255) {
            a += Integer.toUnsignedLong(t.r[m.reg()]);
        }
        if (m.ureg() >= 0 && m.ureg() != 63) {
            a += Integer.toUnsignedLong(w.ur[m.ureg()]);
        }
        return a & 0xffffffffL;
    }

    /** SYNCS for one thread: returns false for a form this class does not know. */
    boolean syncs(SassOp op, SassMachine.Thread t, SassMachine.Warp w, IntRead read) {
        List<SassOperand> o = op.operands();
        if (op.has("EXCH") && op.has("64") && o.size() == 3 && o.get(1) instanceof Mem m
                && o.get(2) instanceof UReg v) {
            long a = ownOffset(sharedAddress(m, t, w));
            copies.drop(a);
            shared.store64(a, Integer.toUnsignedLong(w.ur[v.index()]) | (long) w.ur[v.index() + 1] << 32);
            return true;
        }
        if (op.has("CCTL") && op.has("IV") && o.size() == 1 && o.get(0) instanceof Mem m) {
            long a = ownOffset(sharedAddress(m, t, w));
            copies.drop(a);
            return true;
        }
        if (op.has("ARRIVE") && op.has("TRANS64") && o.size() == 3 && o.get(0) instanceof Reg d
                && o.get(1) instanceof Mem m) {
            long at = sharedAddress(m, t, w);
            Region bar = blockOf(at);
            long a = offsetOf(at);
            int b = read.read(o.get(2));
            long old = bar.load64(a);
            long next;
            if (op.has("OPTOUT")) {
                if (op.has("RED") || op.has("A0TR") || op.has("A0TX") || op.has("A0T1")) {
                    return false;
                }
                // arrive_drop: one (.A1T0) or Rb (.ART0) arrivals; alone (arrive_drop.expect_tx): Rb expected bytes
                // and one arrival
                next = op.has("ART0") ? drop(old, Integer.toUnsignedLong(b), 0)
                        : op.has("A1T0") ? drop(old, 1, 0) : drop(old, 1, Integer.toUnsignedLong(b));
            } else if (op.has("A1T0")) {
                next = arrive(op, old, 1, 0);
            } else if (op.has("ART0")) {
                next = arrive(op, old, b, 0);
            } else if (op.has("A0TR")) {
                next = arrive(op, old, 0, b);
            } else if (op.has("A0TX")) {
                next = arrive(op, old, 0, -(long) b);
            } else if (op.has("A0T1")) { // cp.async.mbarrier.arrive: one transaction its copies' completion completes
                next = arrive(op, old, 0, 1);
            } else if (op.modifiers().equals(List.of("ARRIVE", "TRANS64"))
                    || op.modifiers().equals(List.of("ARRIVE", "TRANS64", "RED"))) {
                next = arrive(op, old, 1, b);
            } else {
                return false;
            }
            bar.store64(a, next);
            if (d.index() != 255) {
                t.r[d.index()] = (int) old;
                t.r[d.index() + 1] = (int) (old >>> 32);
            }
            return true;
        }
        if (op.has("PHASECHK") && op.has("TRANS64") && o.size() == 3 && o.get(0) instanceof Pred p
                && o.get(1) instanceof Mem m) {
            long a = ownOffset(sharedAddress(m, t, w));
            land(op, a);
            boolean done = Mbarrier.completed(shared.load64(a), read.read(o.get(2)) >>> 31);
            if (p.index() != 7) {
                t.p[p.index()] = done;
            }
            return true;
        }
        return false;
    }

    /**
     * The shared memory of the block a barrier address names: in a cluster launch, the block whose rank is the top
     * byte (ptxas's addresses carry the own rank from SR_CgaCtaId, {@code mapa}'s another block's).
     */
    private Region blockOf(long a) {
        return machine.seat == null ? shared : machine.seat.run().shared((int) (a >>> 24), a);
    }

    /** The offset of barrier address {@code a} in {@link #blockOf}'s memory. */
    private long offsetOf(long a) {
        return machine.seat == null ? a : a & 0xffffffL;
    }

    /** A barrier address of the executing block (init, inval, phase checks) as an offset in its shared memory. */
    private long ownOffset(long a) {
        return machine.seat == null ? a : machine.windows.sharedOffset(a);
    }

    private static long arrive(SassOp op, long word, long arrivals, long bytes) {
        try {
            return Mbarrier.arrive(word, arrivals, bytes);
        } catch (IllegalStateException e) {
            throw new Overflow(e.getMessage());
        }
    }

    private static long drop(long word, long arrivals, long bytes) {
        try {
            return Mbarrier.drop(word, arrivals, bytes);
        } catch (IllegalStateException e) {
            throw new Overflow(e.getMessage());
        }
    }

    private void land(SassOp op, long bar) {
        try {
            copies.land(bar, shared);
        } catch (IllegalStateException e) {
            throw new Overflow(e.getMessage());
        }
    }

    /**
     * {@code STAS[.64|.128] [Ra.64+off], Rb} and {@code REDAS.op[.S32|.64] [Ra.64+off], Rb} (st.async, red.async) for
     * one thread: Ra + off is the data's shared::cluster address and Ra+1 the barrier's, each in the block its top
     * byte names; the store or reduction is done at once and its bytes complete that many transaction bytes on the
     * barrier (so a wait on the barrier sees the data).
     */
    void asyncStore(SassOp op, SassMachine.Thread t, IntRead read) {
        List<SassOperand> o = op.operands();
        if (o.size() != 2 || !(o.get(0) instanceof Mem m) || !(o.get(1) instanceof Reg v) || m.reg() < 0
                || m.reg() == 255) {
            throw unimplemented(op);
        }
        long at = Integer.toUnsignedLong(t.r[m.reg()]) + m.offset() & 0xffffffffL;
        long barAt = Integer.toUnsignedLong(t.r[m.reg() + 1]);
        Region data = blockOf(at);
        long a = offsetOf(at);
        int words = op.has("128") ? 4 : op.has("64") ? 2 : 1;
        if (op.opcode().equals("STAS")) {
            for (int k = 0; k < words; k++) {
                data.store32(a + 4L * k, v.index() == 255 ? 0 : t.r[v.index() + k]);
            }
        } else {
            long b = v.index() == 255 ? 0 : words == 2 ? Integer.toUnsignedLong(t.r[v.index()])
                    | (long) t.r[v.index() + 1] << 32 : Integer.toUnsignedLong(t.r[v.index()]);
            int size = 4 * words;
            data.store(a, size, reduce(op, data.load(a, size), b, words == 2));
        }
        Region bar = blockOf(barAt);
        long ba = offsetOf(barAt);
        try {
            bar.store64(ba, Mbarrier.arrive(bar.load64(ba), 0, -4L * words));
        } catch (IllegalStateException e) {
            throw invalid(t, op, e.getMessage());
        }
        t.pc++;
    }

    /** REDAS's operation on the old value (PTX red's inc/dec wrap at b). */
    private static long reduce(SassOp op, long old, long b, boolean wide) {
        long mask = wide ? -1L : 0xffffffffL;
        boolean signed = op.has("S32");
        String kind = op.modifiers().isEmpty() ? "" : op.modifiers().get(0);
        return switch (kind) {
            case "ADD" -> old + b;
            case "MIN" -> signed ? Math.min((int) old, (int) b) : Long.compareUnsigned(old & mask, b & mask) <= 0 ? old : b;
            case "MAX" -> signed ? Math.max((int) old, (int) b) : Long.compareUnsigned(old & mask, b & mask) >= 0 ? old : b;
            case "INC" -> Long.compareUnsigned(old & mask, b & mask) >= 0 ? 0 : old + 1;
            case "DEC" -> (old & mask) == 0 || Long.compareUnsigned(old & mask, b & mask) > 0 ? b : old - 1;
            case "AND" -> old & b;
            case "OR" -> old | b;
            case "XOR" -> old ^ b;
            default -> throw unimplemented(op);
        } & mask;
    }

    /** The uniform-datapath bulk-copy and TMA bookkeeping ops (the machine's uniform step). */
    void uniform(SassOp op, SassMachine.Warp w) {
        if (!uniformKnown(op, w)) {
            throw unimplemented(op);
        }
    }

    private boolean uniformKnown(SassOp op, SassMachine.Warp w) {
        List<SassOperand> o = op.operands();
        switch (op.opcode()) {
            case "UTMACMDFLUSH", "UBLKPF", "UTMACCTL", "UTMAPF" -> {
                return true;
            }
            case "UBLKRED" -> {
                return reduce(op, w);
            }
            case "UBLKCP" -> {
                if (o.size() != 3 || !(o.get(0) instanceof Mem d) || !(o.get(1) instanceof Mem s)
                        || !(o.get(2) instanceof UReg n)) {
                    return false;
                }
                int bytes = 16 * (w.ur[n.index()] & 0xffff);
                int ranks = op.has("MULTICAST") ? w.ur[n.index()] >>> 16 : 0; // .multicast::cluster: the receivers
                if (op.has("S") && op.modifiers().indexOf("S") == 0) { // global -> shared, completes on a barrier
                    long dst = ownOffset(Integer.toUnsignedLong(w.ur[d.ureg()]) + d.offset());
                    long bar = ownOffset(Integer.toUnsignedLong(w.ur[d.ureg() + 1]));
                    long src = pair(w, s.ureg()) + s.offset();
                    byte[] data = new byte[bytes];
                    for (int i = 0; i < bytes; i++) {
                        data[i] = (byte) global.load(src + i, 1);
                    }
                    if (!op.has("MULTICAST") || machine.seat == null) {
                        copies.issue(bar, dst, data);
                    } else { // the same offsets in each receiving block, completing on that block's barrier
                        for (int r = 0; r < 16; r++) {
                            if ((ranks >>> r & 1) != 0) {
                                machine.seat.run().member(r, dst).hopper().copies.issue(bar, dst, data.clone());
                            }
                        }
                    }
                } else { // shared -> global
                    long dst = pair(w, d.ureg()) + d.offset();
                    long src = ownOffset(Integer.toUnsignedLong(w.ur[s.ureg()]) + s.offset());
                    for (int i = 0; i < bytes; i++) {
                        global.store(dst + i, 1, shared.load8(src + i));
                    }
                }
                return true;
            }
            case "UTMALDG", "UTMASTG", "UTMAREDG" -> {
                return tensor(op, w);
            }
            default -> {
                return false;
            }
        }
    }

    /**
     * {@code UBLKRED.G.S.OP[.TYPE] [URg], [URs], URn} (cp.reduce.async.bulk, shared::cta -> global, bulk_group):
     * 16·(URn & 0xffff) bytes of shared memory reduced element by element into global memory when issued
     * ({@link BulkReduction}; no type modifier is u32, the bitwise operations' .U64 is b64, the floating types come
     * with .RN). {@code UBLKRED.S.S.OP [URd], [URs], URn}: into the shared memory of the cluster's block URd names,
     * completing its bytes on the barrier URd+1 names ({@link #clusterReduce}).
     */
    private boolean reduce(SassOp op, SassMachine.Warp w) {
        List<SassOperand> o = op.operands();
        List<String> m = op.modifiers();
        boolean cluster = m.size() >= 3 && m.get(0).equals("S");
        if (m.size() < 3 || !m.get(0).equals(cluster ? "S" : "G") || !m.get(1).equals("S") || o.size() != 3
                || !(o.get(0) instanceof Mem d) || !(o.get(1) instanceof Mem s) || !(o.get(2) instanceof UReg n)) {
            return false;
        }
        String type = m.size() > 3 ? m.get(3) : "U32";
        boolean rounding = type.startsWith("F") || type.equals("BF16"); // the floating types' .RN
        if (m.size() != (rounding ? 5 : m.size() > 3 ? 4 : 3) || rounding && !m.get(4).equals("RN")) {
            return false;
        }
        BulkReduction r = BulkReduction.Op.named(m.get(2)).flatMap(k -> BulkReduction.ofSass(k, type)).orElse(null);
        if (r == null) {
            return false;
        }
        int bytes = 16 * (w.ur[n.index()] & 0xffff);
        long src = ownOffset(Integer.toUnsignedLong(w.ur[s.ureg()]) + s.offset());
        if (cluster) {
            clusterReduce(op, w, r, Integer.toUnsignedLong(w.ur[d.ureg()]) + d.offset(),
                    Integer.toUnsignedLong(w.ur[d.ureg() + 1]), src, bytes);
            return true;
        }
        try {
            r.reduce(BulkReduction.Bytes.of(global), pair(w, d.ureg()) + d.offset(), BulkReduction.Bytes.of(shared),
                    src, bytes);
        } catch (IllegalArgumentException e) {
            throw invalid(machine.threads()[w.base], op, e.getMessage());
        }
        return true;
    }

    /**
     * {@code UBLKRED.S.S}: the {@code bytes} at {@code src} in the executing block's shared memory reduced into the
     * block of the cluster whose shared::cluster address {@code dst} names, its bytes then completed on the barrier at
     * {@code bar} (another block's too), as REDAS does.
     */
    private void clusterReduce(SassOp op, SassMachine.Warp w, BulkReduction r, long dst, long bar, long src,
            int bytes) {
        SassMachine.Thread t = machine.threads()[w.base];
        Region into = blockOf(dst);
        long at = offsetOf(dst);
        try {
            r.reduce(BulkReduction.Bytes.of(into), at, BulkReduction.Bytes.of(shared), src, bytes);
            Region barrier = blockOf(bar);
            long ba = offsetOf(bar);
            barrier.store64(ba, Mbarrier.arrive(barrier.load64(ba), 0, -(long) bytes));
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw invalid(t, op, e.getMessage());
        }
    }

    /**
     * {@code UTMALDG.nD [URb], [URm]} (cp.async.bulk.tensor global -> shared::cluster, tile mode): URb is the
     * destination, URb+1 the barrier, URb+2.. the n signed coordinates; URm:URm+1 the tensor map's address
     * ({@link TensorMap}). The box is read when issued and lands, completing its bytes, when a thread checks the
     * barrier's phase (as UBLKCP's); {@code .MULTICAST [URb], [URm], URk}: into each block of the cluster whose rank is
 * set in URk's high half, at the same offsets. {@code UTMASTG.nD [URb], [URm]} (shared::cta -> global, bulk_group): URb the
     * source, URb+1.. the coordinates; written when issued. {@code UTMAREDG.nD.OP [URb], [URm]}
     * (cp.reduce.async.bulk.tensor) has UTMASTG's operands and reduces the box into global memory element by element
     * on the map's data type ({@link TensorMap#reduce}). {@code UTMAPF.L2.nD} (a prefetch) does nothing here.
     */
    private boolean tensor(SassOp op, SassMachine.Warp w) {
        List<SassOperand> o = op.operands();
        boolean load = op.opcode().equals("UTMALDG");
        boolean multicast = load && op.modifiers().size() == 2 && op.modifiers().get(1).equals("MULTICAST");
        BulkReduction.Op reduction = op.opcode().equals("UTMAREDG") && op.modifiers().size() == 2
                ? BulkReduction.Op.named(op.modifiers().get(1)).orElse(null) : null;
        if (op.opcode().equals("UTMAREDG") && reduction == null) {
            return false;
        }
        int rank = op.modifiers().size() == (multicast || reduction != null ? 2 : 1)
                ? "1D2D3D4D5D".indexOf(op.modifiers().get(0)) / 2 + 1 : 0;
        if (rank < 1 || op.modifiers().get(0).length() != 2 || o.size() != (multicast ? 3 : 2)
                || !(o.get(0) instanceof Mem b) || !(o.get(1) instanceof Mem m) || b.ureg() < 0 || m.ureg() < 0
                || multicast && !(o.get(2) instanceof UReg)) {
            return false;
        }
        int first = b.ureg() + (load ? 2 : 1);
        int[] coords = new int[rank];
        for (int d = 0; d < rank; d++) {
            coords[d] = w.ur[first + d];
        }
        long shared = ownOffset(Integer.toUnsignedLong(w.ur[b.ureg()]) + b.offset() & 0xffffffffL);
        try {
            TensorMap map = TensorMap.read(global, pair(w, m.ureg()) + m.offset());
            long bar = load ? ownOffset(Integer.toUnsignedLong(w.ur[b.ureg() + 1])) : 0;
            if (multicast && machine.seat != null) { // the same offsets in each receiving block, on its barrier
                int ranks = w.ur[((UReg) o.get(2)).index()] >>> 16; // the mask in the high half, as UBLKCP's
                byte[] data = map.toShared(map.load(global, coords), shared);
                for (int r = 0; r < 16; r++) {
                    if ((ranks >>> r & 1) != 0) {
                        machine.seat.run().member(r, shared).hopper().copies.issue(bar, shared, data.clone());
                    }
                }
            } else if (load) {
                copies.issue(bar, shared, map.toShared(map.load(global, coords), shared));
            } else {
                byte[] data = new byte[map.boxBytes()];
                for (int i = 0; i < data.length; i++) {
                    data[i] = (byte) this.shared.load8(shared + i);
                }
                if (reduction != null) {
                    map.reduce(global, coords, map.fromShared(data, shared), reduction);
                } else {
                    map.store(global, coords, map.fromShared(data, shared));
                }
            }
        } catch (IllegalArgumentException e) {
            throw invalid(machine.threads()[w.base], op, e.getMessage());
        }
        return true;
    }

    /**
     * {@code UIMAD.WIDE[.U32][.X] URd, {UPc,} URa, b, URc {, UPcin}}: the 64-bit {@code a * b + c} (plus the carry-in
     * with .X) into the pair URd (ptxas 13 writes it for sm_90 address arithmetic and 64-bit multiply-adds), with an
     * optional carry out of the 64-bit sum as IMAD.WIDE has; a and b are signed unless {@code .U32}.
     */
    static void uimadWide(SassOp op, SassMachine.Warp w, IntRead read) {
        List<SassOperand> o = op.operands();
        boolean unsigned = op.has("U32");
        int i = o.get(1) instanceof SassOperand.UPred ? 2 : 1;
        long a = read.read(o.get(i));
        long b = read.read(o.get(i + 1));
        if (unsigned) {
            a &= 0xffffffffL;
            b &= 0xffffffffL;
        }
        SassOperand cOp = o.get(i + 2);
        long c = cOp instanceof UReg u ? (u.index() == 63 ? 0 : pair(w, u.index())) : read.read(cOp);
        long prod = a * b;
        long s1 = prod + c;
        boolean carry = Long.compareUnsigned(s1, prod) < 0;
        long cin = op.has("X") && o.get(o.size() - 1) instanceof SassOperand.UPred p
                && w.up[p.index()] != p.negated() ? 1 : 0;
        long r = s1 + cin;
        carry |= cin == 1 && r == 0;
        if (o.get(0) instanceof UReg d && d.index() != 63) {
            w.ur[d.index()] = (int) r;
            w.ur[d.index() + 1] = (int) (r >>> 32);
        }
        if (i == 2 && o.get(1) instanceof SassOperand.UPred p && p.index() != 7) {
            w.up[p.index()] = carry;
        }
    }

    private static long pair(SassMachine.Warp w, int u) {
        return Integer.toUnsignedLong(w.ur[u]) | (long) w.ur[u + 1] << 32;
    }

    /** {@code ELECT Pd, URd, Pm}: the lowest of {@code candidates} (active lanes with Pm) is elected. */
    static void elect(SassOp op, SassMachine.Thread[] lanes, int candidates, SassMachine.Warp w) {
        List<SassOperand> o = op.operands();
        int leader = candidates == 0 ? -1 : Integer.numberOfTrailingZeros(candidates);
        if (o.get(1) instanceof UReg u && u.index() != 63 && leader >= 0) {
            w.ur[u.index()] = leader;
        }
        if (o.get(0) instanceof Pred p && p.index() != 7) {
            for (SassMachine.Thread t : lanes) {
                if (t != null) {
                    t.p[p.index()] = t.lane == leader;
                }
            }
        }
    }

    /**
     * {@code STSM.16.M88[.2|.4] [a], Rs} ({@code .MT88} transposed): lanes 8i..8i+7 give the row addresses of matrix
     * i, every lane gives its fragments in Rs..Rs+n-1 (the layout of {@code org.jptxas.simulator.exec.MatrixFragments}).
     */
    void stsm(SassOp op, SassMachine.Thread[] lanes, SassMachine.Warp w) {
        List<SassOperand> o = op.operands();
        boolean trans = op.has("MT88");
        int n = op.has("4") ? 4 : op.has("2") ? 2 : 1;
        Mem m = (Mem) o.get(0);
        Reg s = (Reg) o.get(1);
        int[][] rows = new int[8 * n][4];
        for (SassMachine.Thread t : lanes) {
            if (t == null) {
                continue;
            }
            int l = t.lane;
            for (int i = 0; i < n; i++) {
                int v = s.index() == 255 ? 0 : t.r[s.index() + i];
                if (!trans) {
                    rows[8 * i + (l >>> 2)][l & 3] = v;
                } else {
                    int c = l >>> 2;
                    int[] lo = rows[8 * i + 2 * (l & 3)];
                    int[] hi = rows[8 * i + 2 * (l & 3) + 1];
                    int sh = 16 * (c & 1);
                    lo[c >>> 1] = lo[c >>> 1] & ~(0xffff << sh) | (v & 0xffff) << sh;
                    hi[c >>> 1] = hi[c >>> 1] & ~(0xffff << sh) | (v >>> 16) << sh;
                }
            }
        }
        for (int r = 0; r < 8 * n; r++) {
            SassMachine.Thread t = r < lanes.length ? lanes[r] : null;
            if (t == null) {
                throw invalid(lanes[Integer.numberOfTrailingZeros(activeMask(lanes))], op,
                        "STSM row " + r + " from an inactive lane (undefined)");
            }
            long a = sharedAddress(m, t, w);
            for (int k = 0; k < 4; k++) {
                shared.store32(a + 4 * k, rows[r][k]);
            }
        }
    }

    private static int activeMask(SassMachine.Thread[] lanes) {
        int m = 0;
        for (int l = 0; l < lanes.length; l++) {
            m |= lanes[l] != null ? 1 << l : 0;
        }
        return m;
    }

    /** Reads a source operand for the current thread (the machine's own reader). */
    interface IntRead {
        int read(SassOperand o);
    }
}
