package org.jptxas.scheduler.codegen;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.SpecialReg;
import org.jptxas.ori.ir.Src;
import org.jptxas.scheduler.latency.LatencyModel;
import org.jptxas.scheduler.latency.OpClass;
import org.jptxas.scheduler.model.MemKind;
import org.jptxas.scheduler.model.MemSpace;
import org.jptxas.scheduler.model.RegFile;
import org.jptxas.scheduler.model.RegRange;
import org.jptxas.scheduler.model.SchedFlag;
import org.jptxas.scheduler.model.SimpleInstr;

/**
 * The scheduler's view of a run of Ori instructions before register allocation. Virtual (and the few physical)
 * registers are renumbered densely per run, one scheduler register per 32-bit component, so the DAG builder's
 * fixed-size register files can track them; a run ends early where a file would overflow ({@link #adapt}).
 *
 * <p>Only instructions known to be free of side effects move. Memory instructions are ordered by state space;
 * strong, volatile and acquire/release accesses, and the warp-synchronous instructions (shuffles, votes, matches,
 * reductions), also order every memory access (a fence); barriers, convergence control, branches, calls, clock reads
 * and every opcode not listed here are order points nothing crosses.
 */
final class OriSchedView {
    /** R1, the ABI's stack pointer. */
    private static final int STACK_POINTER = 1;
    /** Pure computations: they move freely within their dependences. */
    private static final Set<String> PURE = Set.of("IMAD", "IMAD_WIDE", "IADD3", "BMSK", "SGXT", "LOP3", "ISETP",
            "IABS", "LEA", "SHF", "PRMT", "VABSDIFF", "VABSDIFF4", "IDP", "IDE", "IMNMX", "POPC", "FLO", "BREV", "FFMA",
            "FADD", "FMUL", "FMNMX", "FSET", "FSEL", "FSETP", "FCHK", "MOV", "SEL", "P2R", "R2P", "PLOP3", "I2I", "I2IP",
            "F2F", "F2F_X", "F2I", "F2I_X", "I2F", "I2F_X", "FRND", "FRND_X", "MUFU", "DFMA", "DADD", "DMUL", "DSETP",
            "HADD2", "HADD2_F32", "HFMA2", "HMUL2", "HSET2", "HSETP2", "HMNMX2", "S2R", "CS2R_32", "CS2R_64", "LDC",
            // tensor-core MMAs read and write registers only: the fragment loads of later steps move above them
            "HMMA", "IMMA", "DMMA", "BMMA", "QMMA",
            // a warp reduction reads registers of the active threads, which change only at order points
            "REDUX");
    /**
     * Warp-synchronous: the lanes exchange values; ordered like fences. REDUX is not among them: it reads no
     * memory and only the active threads matter, which change at branches, exits and barriers alone (order points
     * already), so ptxas hoists a warp-aggregated atomic's reductions above the REDs before it.
     */
    private static final Set<String> WARP_SYNC = Set.of("SHFL", "VOTE", "MATCH", "ELECT");
    /** Memory modifiers that make an access ordered (volatile, strong, acquire/release, MMIO). */
    private static final Set<String> ORDERED_MEMORY = Set.of("STRONG", "SYS", "GPU", "SM", "VOLATILE", "MMIO",
            "ACQUIRE", "RELEASE", "ACQ_REL");

    private final LatencyModel model;

    OriSchedView(LatencyModel model) {
        this.model = model;
    }

    /**
     * The scheduler instructions of {@code instrs[from..]}, stopping before the first instruction whose registers do
     * not fit the dense files (at least one instruction is always taken).
     */
    List<SimpleInstr> adapt(List<Instr> instrs, int from) {
        Renaming names = new Renaming();
        List<SimpleInstr> out = new ArrayList<>();
        for (int i = from; i < instrs.size(); i++) {
            names.checkpoint();
            SimpleInstr s = adapt(instrs.get(i), names);
            if (s == null) {
                if (out.isEmpty()) {
                    throw new IllegalStateException("one instruction names too many registers: " + instrs.get(i));
                }
                names.rollback();
                break;
            }
            out.add(s);
        }
        return out;
    }

    private SimpleInstr adapt(Instr in, Renaming names) {
        String op = in.op().name();
        String mnemonic = op.contains("_") ? op.substring(0, op.indexOf('_')) : op;
        Set<String> mods = new java.util.HashSet<>(in.mods());
        if (op.contains("_")) {
            mods.addAll(Arrays.asList(op.substring(op.indexOf('_') + 1).split("_")));
        }
        String latencyClass = model.classify(mnemonic, mods).map(OpClass::name).orElse("alu");
        // no name: the instruction's text is never asked for, and printing every instruction of a block is costly
        SimpleInstr.Builder b = SimpleInstr.builder(latencyClass);
        for (Reg d : in.dsts()) {
            if (!names.add(d, b, true)) {
                return null;
            }
        }
        for (Src s : in.srcs()) {
            boolean ok = true;
            if (s.value() instanceof Reg r) {
                ok = names.add(r, b, false);
            } else if (s.value() instanceof CBank c && c.index() != null) {
                ok = names.add(c.index(), b, false);
            } else if (s.value() instanceof Addr a) {
                ok = names.add(a.base(), b, false) && (a.uniformBase() == null || names.add(a.uniformBase(), b, false));
            }
            if (!ok) {
                return null;
            }
        }
        if (!in.guard().isAlways()) {
            RegRange g = names.range(in.guard().predicate());
            if (g == null) {
                return null;
            }
            if (g.file() == RegFile.P || g.file() == RegFile.UP) {
                b.guard(g.file(), g.first());
            } else {
                b.use(g); // a predicate renamed into the overflow file: a plain use orders it just the same
            }
        }
        classify(in, op, mods, b);
        return b.build();
    }

    /**
     * Turing's {@code HMMA.884.*.STEPn}: the steps of one quad-pair multiply stay back to back and in order, as ptxas
     * issues them (nothing is known of the hardware allowing otherwise), so each is an order point.
     */
    private static boolean quadPairStep(String op, Set<String> mods) {
        return op.equals("HMMA") && mods.stream().anyMatch(m -> m.startsWith("STEP"));
    }

    private static void classify(Instr in, String op, Set<String> mods, SimpleInstr.Builder b) {
        MemSpace space = switch (op) {
            case "LDG", "STG", "ATOMG", "RED" -> MemSpace.GLOBAL;
            case "LDS", "LDSM", "STS", "ATOMS" -> MemSpace.SHARED;
            case "LDL", "STL" -> MemSpace.LOCAL;
            case "LD", "ST", "ATOM" -> MemSpace.GENERIC;
            // mbarrier operations and asynchronous stores: an arrival releases the block's earlier accesses and may
            // reach another block of the cluster (.RED, STAS, REDAS), a phase check acquires: atomics on any memory
            case "SYNCS", "STAS", "REDAS" -> MemSpace.GENERIC;
            // texture reads: loads of read-only memory, free to move among other accesses (see MemSpace)
            case "TEX", "TLD", "TLD4", "TXD", "TMML", "TXQ" -> MemSpace.TEXTURE;
            default -> MemSpace.NONE;
        };
        if (space != MemSpace.NONE) {
            MemKind kind = switch (op) {
                case "LDG", "LDS", "LDSM", "LDL", "LD", "TEX", "TLD", "TLD4", "TXD", "TMML", "TXQ" -> MemKind.LOAD;
                case "STG", "STS", "STL", "ST" -> MemKind.STORE;
                default -> MemKind.ATOMIC;
            };
            b.mem(kind, space);
            if (kind == MemKind.ATOMIC || mods.stream().anyMatch(ORDERED_MEMORY::contains)) {
                b.flag(SchedFlag.FENCE);
            }
            return;
        }
        if (WARP_SYNC.contains(op)) {
            b.flag(SchedFlag.FENCE);
            return;
        }
        if (PURE.contains(op) && !readsClock(in) && !definesStackPointer(in) && !quadPairStep(op, mods)) {
            return;
        }
        switch (op) {
            case "BRA", "BRX", "JMP", "JMX" -> b.flag(SchedFlag.BRANCH);
            case "EXIT", "KILL" -> b.flag(SchedFlag.EXIT);
            case "CALL", "RET" -> b.flag(SchedFlag.CALL);
            case "BAR", "BAR_INDEXED" -> b.flag(SchedFlag.BARRIER);
            // a warp barrier is convergence control too: nothing crosses it (see DagBuilder)
            case "WARPSYNC" -> b.flag(SchedFlag.BARRIER).flag(SchedFlag.CONTROL);
            default -> b.flag(SchedFlag.CONTROL);
        }
    }

    /**
     * Stack-pointer adjustments keep their place: the call-frame pass after allocation finds a function's own frame
     * adjustment at the head of its entry block and before each {@code RET}, and lays its saves out around it.
     */
    private static boolean definesStackPointer(Instr in) {
        for (Reg d : in.dsts()) {
            if (!d.virtual() && d.file() == org.jptxas.ori.ir.RegFile.R && d.index() == STACK_POINTER) {
                return true;
            }
        }
        return false;
    }

    /** Clock and timer reads must keep their place relative to everything. */
    private static boolean readsClock(Instr in) {
        for (Src s : in.srcs()) {
            if (s.value() instanceof SpecialReg sr && (sr.name().contains("CLOCK") || sr.name().contains("TIMER"))) {
                return true;
            }
        }
        return false;
    }

    /**
     * Dense scheduler register numbers for one run: per Ori file, one number per 32-bit component of each register
     * seen. Predicates that do not fit P0..P6 continue in the (otherwise unused) convergence-barrier file.
     */
    private static final class Renaming {
        private final Map<Long, Integer>[] maps;
        private final int[] next;
        private final int[] saved;
        private final List<long[]> added = new ArrayList<>();

        @SuppressWarnings("unchecked")
        Renaming() {
            maps = new Map[org.jptxas.ori.ir.RegFile.values().length];
            for (int k = 0; k < maps.length; k++) {
                maps[k] = new HashMap<>();
            }
            next = new int[maps.length];
            saved = new int[maps.length];
        }

        /** Remembers the state before an instruction, so {@link #rollback} can forget what it added. */
        void checkpoint() {
            System.arraycopy(next, 0, saved, 0, next.length);
            added.clear();
        }

        void rollback() {
            for (long[] a : added) {
                maps[(int) a[0]].remove(a[1]);
            }
            System.arraycopy(saved, 0, next, 0, next.length);
            added.clear();
        }

        /** Adds the components of {@code r} as uses or defs; false when a file overflows. */
        boolean add(Reg r, SimpleInstr.Builder b, boolean def) {
            if (r.isZero()) {
                return true;
            }
            for (int c = 0; c < r.width(); c++) {
                RegRange x = component(r, c);
                if (x == null) {
                    return false;
                }
                if (def) {
                    b.def(x);
                } else {
                    b.use(x);
                }
            }
            return true;
        }

        /** The first component of {@code r} (a predicate or a 32-bit register), or null on overflow. */
        RegRange range(Reg r) {
            return component(r, 0);
        }

        private RegRange component(Reg r, int c) {
            org.jptxas.ori.ir.RegFile f = r.file();
            long key = r.virtual() ? 1L << 40 | (long) r.index() << 3 | (r.isPart() ? r.part() : c) : r.index() + c;
            Integer n = maps[f.ordinal()].get(key);
            if (n == null) {
                n = next[f.ordinal()];
                if (n >= capacity(f)) {
                    return null;
                }
                next[f.ordinal()]++;
                maps[f.ordinal()].put(key, n);
                added.add(new long[] {f.ordinal(), key});
            }
            return switch (f) {
                case R -> RegRange.of(RegFile.R, n);
                case UR -> RegRange.of(RegFile.UR, n);
                case UP -> RegRange.of(RegFile.UP, n);
                case P -> n < RegFile.P.zero() ? RegRange.of(RegFile.P, n) : RegRange.of(RegFile.B, n - RegFile.P.zero());
            };
        }

        private static int capacity(org.jptxas.ori.ir.RegFile f) {
            return switch (f) {
                case R -> RegFile.R.zero();
                case UR -> RegFile.UR.zero();
                case UP -> RegFile.UP.zero();
                case P -> RegFile.P.zero() + RegFile.B.size();
            };
        }
    }
}
