package org.jptxas.scheduler.codegen;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.jptxas.isel.codegen.CodeLine;
import org.jptxas.isel.codegen.RecentMemo;
import org.jptxas.ori.target.TargetFeature;
import org.jptxas.sass.SassOp;
import org.jptxas.scheduler.latency.LatencyModel;
import org.jptxas.scheduler.model.RegFile;
import org.jptxas.scheduler.model.RegRange;
import org.jptxas.scheduler.model.SchedFlag;
import org.jptxas.scheduler.model.SimpleInstr;
import org.jptxas.scheduler.sass.SassReader;
import org.jptxas.scheduler.sass.SassShape;
import org.jptxas.spi.TargetDescription;

/**
 * The scheduler's view of generated SASS: {@link SassReader} over each line's typed instruction, plus what the
 * instruction does not show. On sm_80 … sm_89 every {@code .E} global or generic access reads the memory descriptor
 * in UR4/UR5 (see the code generator's {@code GlobalDescriptor}), which must stay after the {@code ULDC.64} that
 * loads it.
 *
 * <p>{@link #forMotion} adds the constraints that only matter when instructions move: mnemonics without a latency
 * class and clock reads keep their place (order points); warp-synchronous instructions and ordered (strong,
 * volatile) memory accesses order every memory access, like fences.
 *
 * <p>What it makes of a line depends on the line's typed instruction alone, so one view serves every function a
 * target compiles (the functions of a module share most of their instructions): its memos are kept by the pass and
 * shared by the threads of a batch or a compile server, and keep the lines in use when full. Thread-safe.
 */
final class SassView {
    /** The uniform pair the descriptor lives in (ptxas's and the code generator's choice). */
    static final int DESCRIPTOR_UR = 4;
    private static final Set<String> DESCRIPTOR_USERS = Set.of("LDG", "STG", "LD", "ST", "ATOM", "ATOMG", "RED", "REDG");
    /** Ordered like fences (REDUX is not: see {@code OriSchedView}). */
    private static final Set<String> WARP_SYNC = Set.of("SHFL", "VOTE", "VOTEU", "MATCH", "ELECT");
    private static final Set<String> ORDERED_MEMORY = Set.of("STRONG", "SYS", "GPU", "SM", "VOLATILE", "MMIO");

    /** Bound on each generation of the memo (see {@link RecentMemo}): above the largest corpus function's lines. */
    private static final int MEMO_GENERATION = 1 << 17;

    private final SassReader reader;
    private final boolean descriptorInUr;
    /**
     * Per typed instruction, everything the passes ask of its line: what a line means depends on its instruction
     * alone, and the post-allocation scheduler and every round of control-word making view the same lines.
     */
    private final RecentMemo<SassOp, Line> lines = new RecentMemo<>(MEMO_GENERATION);
    /**
     * mbarrier operations and asynchronous stores into a cluster's shared memory keep their place among memory
     * accesses and fences: an arrival releases, a phase check acquires, and either may reach any block's memory.
     */
    private static final java.util.Set<String> ASYNC_SHARED = java.util.Set.of("SYNCS", "STAS", "REDAS");

    /**
     * One line as the scheduling passes see it, made once per distinct line.
     *
     * @param control  the instruction as control-word generation and the hazard checker see it
     * @param motion   the instruction with the extra ordering constraints of code motion
     * @param slots    the reuse-flag slots ({@link ReuseFlags#slots(SassShape)} of its shape)
     * @param flow     the line's part in the control flow (its label aside, which the key leaves out)
     */
    record Line(SimpleInstr control, SimpleInstr motion, ReuseFlags.Slots slots, FlowPart flow) {}

    /** Whether a line is guarded, its base mnemonic and the label it branches to (null for none). */
    record FlowPart(boolean guarded, String mnemonic, String target) {}

    SassView(TargetDescription description) {
        this.reader = new SassReader(LatencyModel.of(description),
                description.has(TargetFeature.UR_IN_GLOBAL_ADDRESS_BITS));
        this.descriptorInUr = description.has(TargetFeature.GLOBAL_DESCRIPTOR_IN_UR);
    }

    /** The scheduling passes' view of {@code line}. */
    Line line(CodeLine line) {
        SassOp op = line.op();
        Line l = lines.get(op);
        return l != null ? l : lines.put(op, viewOf(line));
    }

    /** The instruction with the extra ordering constraints of code motion. */
    SimpleInstr forMotion(CodeLine line) {
        return line(line).motion();
    }

    private Line viewOf(CodeLine line) {
        SassOp op = line.op();
        SassShape shape = SassShape.of(op.form(), op.values());
        SassReader.Parsed p = read(op, shape);
        return new Line(p.instr(), motionOf(p), ReuseFlags.slots(shape),
                new FlowPart(line.guarded(), line.mnemonic(), line.branchTarget()));
    }

    private static SimpleInstr motionOf(SassReader.Parsed p) {
        SimpleInstr in = p.instr();
        SchedFlag extra = null;
        if (!p.known() || p.timer()) {
            extra = SchedFlag.CONTROL;
        } else if (WARP_SYNC.contains(p.mnemonic()) || in.memKind() != org.jptxas.scheduler.model.MemKind.NONE
                && p.modifiers().stream().anyMatch(ORDERED_MEMORY::contains)
                || ASYNC_SHARED.contains(p.mnemonic())) {
            extra = SchedFlag.FENCE;
        }
        if (extra == null) {
            return in;
        }
        EnumSet<SchedFlag> flags = EnumSet.of(extra);
        flags.addAll(in.flags());
        return new SimpleInstr(in.name(), in.latencyClass(), in.defs(), in.uses(), in.guard(), in.reuseSlots(),
                in.memKind(), in.memSpace(), flags, in.scoreboardDrain());
    }

    private SassReader.Parsed read(SassOp op, SassShape shape) {
        boolean descriptor = descriptorInUr;
        long lo = (long) (descriptor ? DESCRIPTOR_UR : RegFile.UR.zero()) << 32;
        // the instruction's own text (a relocated operand printed as 0) names it in diagnostics
        SassReader.Parsed p = reader.parse(shape, lo, op.text());
        SimpleInstr in = p.instr();
        boolean global = DESCRIPTOR_USERS.contains(p.mnemonic()) && p.modifiers().contains("E");
        if (global) {
            in = widenAddress(in, shape.addressBase());
        }
        // The reader finds the descriptor of loads and atomics in the encoding; stores and reductions read it too.
        if (descriptor && global && !shape.hasDescriptor() && !readsDescriptor(in)) {
            List<RegRange> uses = new ArrayList<>(in.uses());
            uses.add(new RegRange(RegFile.UR, DESCRIPTOR_UR, 2));
            in = new SimpleInstr(in.name(), in.latencyClass(), in.defs(), uses, in.guard(), in.reuseSlots(),
                    in.memKind(), in.memSpace(), in.flags(), in.scoreboardDrain());
        }
        return in == p.instr() ? p : new SassReader.Parsed(in, p.mnemonic(), p.modifiers(), p.known(), p.timer());
    }

    /**
     * {@code .E} accesses take a 64-bit address: sm_75 prints its register pair as {@code [R2]} (later SMs as
     * {@code [R2.64]}), so a lone address register is widened to the pair it names.
     */
    private static SimpleInstr widenAddress(SimpleInstr in, SassShape.Reg base) {
        if (base == null || base.file() != RegFile.R && base.file() != RegFile.UR) {
            return in;
        }
        RegFile file = base.file();
        int reg = base.number();
        List<RegRange> uses = new ArrayList<>(in.uses());
        boolean changed = false;
        for (int k = 0; k < uses.size(); k++) {
            RegRange r = uses.get(k);
            if (r.file() == file && r.first() == reg && r.count() == 1 && reg + 1 < file.zero()) {
                uses.set(k, new RegRange(file, reg, 2));
                changed = true;
                break;
            }
        }
        return changed ? new SimpleInstr(in.name(), in.latencyClass(), in.defs(), uses, in.guard(), in.reuseSlots(),
                in.memKind(), in.memSpace(), in.flags(), in.scoreboardDrain()) : in;
    }

    private static boolean readsDescriptor(SimpleInstr in) {
        for (RegRange r : in.uses()) {
            if (r.file() == RegFile.UR && r.first() == DESCRIPTOR_UR) {
                return true;
            }
        }
        return false;
    }
}
