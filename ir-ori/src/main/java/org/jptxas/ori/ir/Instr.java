package org.jptxas.ori.ir;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import org.jptxas.ori.opcode.OriOpcode;

/**
 * One Ori instruction: a SASS-level opcode with its modifiers, destinations first, then sources, and a guard.
 * Mutable, because passes rewrite instructions in place; owned by exactly one {@link BasicBlock}.
 */
public final class Instr {
    private OriOpcode op;
    private List<String> mods;
    private final List<Reg> dsts;
    private final Sources srcs;
    private Guard guard;
    private int line;
    /** May fuse with a multiply or an add (PTX mul/add/sub without an explicit rounding modifier). */
    private boolean contractible;
    /** {@link #usedRegs()} as last computed, for the sources' {@code version} and guard it was computed from. */
    private List<Reg> used;
    private int usedVersion;
    private Guard usedGuard;
    /**
     * Where the last analysis to number this instruction put it ({@link #markPosition}), and which analysis that
     * was: looking positions up by instruction identity in a table cost a hash per instruction and lookup, and the
     * def-use analysis numbering them is rebuilt after every pass that changes the body.
     */
    private Object positionOwner;
    private long position;

    /**
     * The source list, counting its changes: passes rewrite sources in place through {@link #srcs()}, and
     * {@link #usedRegs()}, asked for many times per pass, is recomputed only after such a change.
     */
    private static final class Sources extends ArrayList<Src> {
        private static final long serialVersionUID = 1L;
        private int sets;

        Sources(List<Src> srcs) {
            super(srcs);
        }

        @Override
        public Src set(int index, Src element) {
            sets++;
            return super.set(index, element);
        }

        /** Changes so far: structural ones ({@code modCount}) and replacements. */
        int version() {
            return modCount + sets;
        }
    }

    public Instr(OriOpcode op, List<String> mods, List<Reg> dsts, List<Src> srcs, Guard guard, int line) {
        this.op = Objects.requireNonNull(op, "op");
        this.mods = List.copyOf(mods);
        this.dsts = new ArrayList<>(dsts);
        this.srcs = new Sources(srcs);
        this.guard = Objects.requireNonNull(guard, "guard");
        this.line = line;
    }

    public static Instr of(OriOpcode op, List<Reg> dsts, List<Src> srcs) {
        return new Instr(op, List.of(), dsts, srcs, Guard.ALWAYS, 0);
    }

    public OriOpcode op() {
        return op;
    }

    public void setOp(OriOpcode op) {
        this.op = Objects.requireNonNull(op, "op");
    }

    /** SASS modifiers in printing order, without dots: {@code WIDE}, {@code U32}, {@code X}. */
    public List<String> mods() {
        return mods;
    }

    public void setMods(List<String> mods) {
        this.mods = List.copyOf(mods);
    }

    public boolean hasMod(String mod) {
        return mods.contains(mod);
    }

    /** Destinations, mutable in place by passes. */
    public List<Reg> dsts() {
        return dsts;
    }

    /** Sources, mutable in place by passes. */
    public List<Src> srcs() {
        return srcs;
    }

    public Guard guard() {
        return guard;
    }

    public void setGuard(Guard guard) {
        this.guard = Objects.requireNonNull(guard, "guard");
    }

    /**
     * Whether this {@code FMUL}/{@code DMUL}/{@code FADD}/{@code DADD} may be contracted with another into a fused
     * multiply-add ({@link org.jptxas.ori.opt.FmaContraction}): the PTX instruction had no explicit rounding
     * modifier. False for anything else, and for instructions passes create.
     */
    public boolean contractible() {
        return contractible;
    }

    public Instr setContractible(boolean contractible) {
        this.contractible = contractible;
        return this;
    }

    /**
     * Records {@code position} (non-negative) for the analysis {@code owner}, replacing any other analysis' record:
     * an analysis that finds its record gone ({@link #positionFor} negative) keeps its own table as well.
     */
    public void markPosition(Object owner, long position) {
        this.positionOwner = owner;
        this.position = position;
    }

    /** The position {@code owner} last recorded here, or -1 when the last record is another analysis'. */
    public long positionFor(Object owner) {
        return positionOwner == owner ? position : -1;
    }

    /** The PTX source line this instruction came from; 0 when none. */
    public int line() {
        return line;
    }

    public void setLine(int line) {
        this.line = line;
    }

    /**
     * Every register this instruction reads: register sources, constant-bank indices, address bases and the guard.
     * Unmodifiable; computed again only after the sources or the guard changed.
     */
    public List<Reg> usedRegs() {
        if (used == null || usedVersion != srcs.version() || usedGuard != guard) {
            used = Collections.unmodifiableList(computeUsedRegs());
            usedVersion = srcs.version();
            usedGuard = guard;
        }
        return used;
    }

    /** Adds the registers source {@code s} reads, in {@link #usedRegs()}'s order, to {@code out}. */
    public static void addRegsRead(Src s, List<Reg> out) {
        if (s.value() instanceof Reg r) {
            out.add(r);
        } else if (s.value() instanceof CBank c && c.index() != null) {
            out.add(c.index());
        } else if (s.value() instanceof Addr a) {
            // The registers an address reads are uses like any other (liveness, def-use, RA depend on it).
            if (!a.base().isZero()) {
                out.add(a.base());
            }
            if (a.uniformBase() != null && !a.uniformBase().isZero()) {
                out.add(a.uniformBase());
            }
        }
    }

    private List<Reg> computeUsedRegs() {
        List<Reg> used = new ArrayList<>(srcs.size() + 1);
        for (Src s : srcs) {
            addRegsRead(s, used);
        }
        if (!guard.isAlways()) {
            used.add(guard.predicate());
        }
        return used;
    }

    /**
     * The block this direct branch may go to, if any; null for an indirect branch through a jump table (BRX), whose
     * several targets {@link #branchTargets()} lists.
     */
    public BlockLabel branchTarget() {
        if (isIndirectBranch()) {
            return null;
        }
        for (int i = 0; i < srcs.size(); i++) { // indexed: C1 allocates a for-each's iterator
            if (srcs.get(i).value() instanceof BlockLabel l) {
                return l;
            }
        }
        return null;
    }

    /**
     * Every block this instruction may branch to, each once, in the order its operands first name them: the target
     * of a direct branch, or the entries of a BRX's jump table.
     */
    public List<BlockLabel> branchTargets() {
        List<BlockLabel> out = new ArrayList<>(1);
        for (Src s : srcs) {
            if (s.value() instanceof BlockLabel l && !out.contains(l)) {
                out.add(l);
            }
        }
        return out;
    }

    /** A branch through a jump table: BRX with its table entries as block-label operands. */
    public boolean isIndirectBranch() {
        return op.name().equals("BRX");
    }

    /** Ends a block: branches, returns and exits. */
    public boolean isTerminator() {
        return switch (op.name()) {
            case "BRA", "BRX", "JMP", "JMX", "RET", "EXIT" -> true;
            default -> false;
        };
    }

    /** Control never falls through to the next instruction: an unguarded branch, return or exit. */
    public boolean endsControl() {
        return isTerminator() && guard.isAlways();
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        if (!guard.isAlways()) {
            sb.append(guard).append(' ');
        }
        sb.append(op.name());
        for (String m : mods) {
            sb.append('.').append(m);
        }
        String sep = " ";
        for (Reg d : dsts) {
            sb.append(sep).append(d);
            sep = ", ";
        }
        for (Src s : srcs) {
            sb.append(sep).append(s);
            sep = ", ";
        }
        return sb.toString();
    }
}
