package org.jptxas.isel.select;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jptxas.isel.codegen.CodegenContext;
import org.jptxas.isel.codegen.OriPass;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Operand;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.opcode.OpcodeGroup;
import org.jptxas.ori.opcode.OriOpcode;
import org.jptxas.ori.opcode.OriOpcodes;
import org.jptxas.ori.target.TargetFeature;

/**
 * Rewrites virtual-register Ori so that every instruction has an operand form its target encodes, before register
 * allocation. What the target accepts is not kept in hand lists: an instruction is tried as the target's selector
 * would emit it, with stand-in physical registers, against the target's SASS form table. When that fails, the
 * legalizer tries, fewest changes first: the sm_90 memory descriptor the selected form names, swapping the first two
 * sources of a commutative operation (and the third with either for IADD3), and moving sources into fresh registers ({@code MOV}, {@code LDC}, {@code ULDC},
 * {@code UMOV}, chosen again by what encodes): an immediate or constant-bank operand where only a register fits, a
 * second constant bank, an immediate too wide for its field, a 64-bit immediate (two {@code MOV}s into the halves), a
 * uniform register where only R fits. An instruction nothing fixes is left alone for selection to report.
 */
public final class Legalizer implements OriPass {
    /**
     * Where the driver puts the global memory descriptor sm_90 accesses name (c[0x0][0x208]) when no target says
     * otherwise; a pass run reads the target's own ({@code c[0x0][0x358]} from sm_100 on).
     */
    static final int GLOBAL_DESCRIPTOR = 0x208;
    private static final int MAX_MOVED = 3;

    private final InstructionSelector selector;

    public Legalizer(InstructionSelector selector) {
        this.selector = Objects.requireNonNull(selector, "selector");
    }

    @Override
    public String name() {
        return "legalize";
    }

    @Override
    public void run(OriFunction function, CodegenContext context) {
        // targets whose accesses name the descriptor say where the driver puts it; the others keep the sm_90 offset
        legalize(function.body(), context.has(TargetFeature.GLOBAL_DESCRIPTOR_OPERAND)
                ? context.profile().memoryDescriptor() : GLOBAL_DESCRIPTOR);
    }

    /**
     * Whether {@code ins} (virtual registers) encodes once legalized, as {@link #legalize} would rewrite it (sources
     * moved into registers, offsets folded): what the optimizer asks before it predicates an instruction. Works on a
     * copy in a scratch body; {@code ins} is not changed.
     */
    public boolean legalizes(Instr ins) {
        Instr copy = new Instr(ins.op(), ins.mods(), ins.dsts(), new ArrayList<>(ins.srcs()), ins.guard(), ins.line());
        PerFunction fn = new PerFunction(new FunctionBody(), GLOBAL_DESCRIPTOR);
        fn.legalize(copy);
        return fn.unencodable.isEmpty();
    }

    /** What a run changed: instructions inserted, instructions rewritten, and those left unencodable. */
    public record Result(int inserted, int rewritten, List<Instr> unencodable) {}

    public Result legalize(FunctionBody body) {
        return legalize(body, GLOBAL_DESCRIPTOR);
    }

    /** {@link #legalize(FunctionBody)} with the global memory descriptor at bank-0 offset {@code descriptorOffset}. */
    public Result legalize(FunctionBody body, int descriptorOffset) {
        PerFunction fn = new PerFunction(body, descriptorOffset);
        for (BasicBlock b : body.blocks()) {
            fn.materialized.clear();
            List<Instr> list = b.instrs();
            for (int i = 0; i < list.size(); i++) {
                Instr ins = list.get(i);
                List<Instr> before = fn.legalize(ins);
                if (!before.isEmpty()) {
                    list.addAll(i, before);
                    i += before.size();
                }
            }
        }
        if (fn.descriptor != null) {
            body.block(0).instrs().add(0, fn.descriptorLoad);
            fn.inserted++;
        }
        return new Result(fn.inserted, fn.rewritten, List.copyOf(fn.unencodable));
    }

    /** State of one function's run: its descriptor register and counters. */
    private final class PerFunction {
        final FunctionBody body;
        final int descriptorOffset;
        Reg descriptor;
        Instr descriptorLoad;
        int inserted;
        int rewritten;
        final List<Instr> unencodable = new ArrayList<>();
        /**
         * The registers this block's earlier moves put immediates in, by file, width and value: a constant moved
         * for several instructions of a block (IMAD.WIDE's element size beside a constant-bank addend) is moved
         * once and kept in its register, as ptxas does, rather than once per instruction.
         */
        final java.util.Map<List<Object>, Reg> materialized = new java.util.HashMap<>();

        PerFunction(FunctionBody body, int descriptorOffset) {
            this.body = body;
            this.descriptorOffset = descriptorOffset;
        }

        /** Legalizes {@code ins} in place; returns the instructions to insert before it. */
        List<Instr> legalize(Instr ins) {
            if (encodes(ins)) {
                return List.of();
            }
            Matcher best = selector.best(ins);
            boolean addedDescriptor = false;
            if (best != null && best.needsDescriptor() && !hasDescriptor(ins)) {
                ins.srcs().add(Src.of(descriptor()));
                addedDescriptor = true;
                rewritten++;
                if (encodes(ins)) {
                    return List.of();
                }
            }
            if (isCommutative(ins) && ins.srcs().size() >= 2) {
                swapFirstSources(ins);
                if (encodes(ins)) {
                    rewritten++;
                    return List.of();
                }
                swapFirstSources(ins);
            }
            if (ins.op().name().equals("IADD3") && ins.srcs().size() >= 3) {
                // a three-way sum: the third source may trade places too (ptxas writes "-R, R, -R", never "-R, -R, R")
                for (int[] p : new int[][] {{1, 2}, {0, 2}}) {
                    swapSources(ins, p[0], p[1]);
                    if (encodes(ins)) {
                        rewritten++;
                        return List.of();
                    }
                    swapSources(ins, p[0], p[1]);
                }
            }
            List<Integer> movable = new ArrayList<>();
            for (int s = 0; s < ins.srcs().size(); s++) {
                if (movable(ins, s)) {
                    movable.add(s);
                }
            }
            for (int k = 1; k <= Math.min(MAX_MOVED, movable.size()); k++) {
                for (List<Integer> subset : subsets(movable, k)) {
                    List<Instr> moves = tryMoving(ins, subset);
                    if (moves != null) {
                        rewritten++;
                        inserted += moves.size();
                        return moves;
                    }
                }
            }
            List<Instr> folded = foldAddressOffset(ins);
            if (folded == null && addedDescriptor) {
                // the form that named a descriptor was the closest only because of the offset: the forms that fit
                // the folded address may name none (ATOM.E.CAS [R.64] with an offset beyond its 24-bit field)
                Src descriptor = ins.srcs().remove(ins.srcs().size() - 1);
                folded = foldAddressOffset(ins);
                if (folded == null) {
                    ins.srcs().add(descriptor);
                }
            }
            if (folded != null) {
                rewritten++;
                inserted += folded.size();
                return folded;
            }
            unencodable.add(ins);
            return List.of();
        }

        /**
         * An address whose offset the target's form lacks (or whose field it overflows) gets the offset added to a
         * fresh base: {@code IADD3} for a 32-bit window address, an {@code IADD3}/{@code IADD3.X} carry pair for a
         * 64-bit one. Returns the additions, or null (and leaves {@code ins} unchanged) when that does not encode.
         */
        List<Instr> foldAddressOffset(Instr ins) {
            for (int s = 0; s < ins.srcs().size(); s++) {
                Src src = ins.srcs().get(s);
                if (!(src.value() instanceof Addr a) || a.offset() == 0 || a.base().file() != RegFile.R) {
                    continue;
                }
                if (a.base().isZero()) {
                    // An absolute window address the form lacks: the address into a register.
                    Reg base = body.newVirtual(RegFile.R, 1);
                    Instr mov = new Instr(opcode("MOV"), List.of(), List.of(base), List.of(Src.of(Imm.ofInt((int) a.offset()))),
                            Guard.ALWAYS, ins.line());
                    ins.srcs().set(s, new Src(new Addr(base, a.uniformBase(), 0), src.neg(), src.abs(), src.not()));
                    if (encodes(mov) && encodes(ins)) {
                        return List.of(mov);
                    }
                    ins.srcs().set(s, src);
                    continue;
                }
                List<Instr> adds = new ArrayList<>();
                Reg base;
                int line = ins.line();
                if (a.wide()) {
                    base = body.newVirtual(RegFile.R, 2);
                    Reg carry = body.newVirtual(RegFile.P, 1);
                    adds.add(new Instr(opcode("IADD3"), List.of(), List.of(base.component(0), carry, Reg.PT),
                            List.of(Src.of(a.base().component(0)), Src.of(Imm.ofInt((int) a.offset())), Src.of(Reg.RZ)),
                            Guard.ALWAYS, line));
                    Operand high = a.offset() < 0 ? Imm.ofInt(-1) : Reg.RZ;
                    adds.add(new Instr(opcode("IADD3"), List.of("X"), List.of(base.component(1), Reg.PT, Reg.PT),
                            List.of(Src.of(Reg.RZ), Src.of(a.base().component(1)), Src.of(high), Src.of(carry),
                                    Src.of(Reg.PT).inverted()), Guard.ALWAYS, line));
                } else {
                    base = body.newVirtual(RegFile.R, 1);
                    adds.add(new Instr(opcode("IADD3"), List.of(), List.of(base, Reg.PT, Reg.PT),
                            List.of(Src.of(a.base()), Src.of(Imm.ofInt((int) a.offset())), Src.of(Reg.RZ)),
                            Guard.ALWAYS, line));
                }
                ins.srcs().set(s, new Src(new Addr(base, a.uniformBase(), 0), src.neg(), src.abs(), src.not()));
                if (adds.stream().allMatch(this::encodes) && encodes(ins)) {
                    return adds;
                }
                ins.srcs().set(s, src);
            }
            return null;
        }

        Reg descriptor() {
            if (descriptor == null) {
                descriptor = body.newVirtual(RegFile.UR, 2);
                descriptorLoad = new Instr(opcode("ULDC"), List.of("64"), List.of(descriptor),
                        List.of(Src.of(CBank.of(0, descriptorOffset))), Guard.ALWAYS, 0);
            }
            return descriptor;
        }

        /**
         * Moves the sources at {@code positions} into fresh registers when the result encodes; returns the moves, or
         * null (and leaves {@code ins} unchanged) when it does not.
         */
        List<Instr> tryMoving(Instr ins, List<Integer> positions) {
            List<Src> original = new ArrayList<>(ins.srcs());
            List<Instr> moves = new ArrayList<>();
            java.util.Map<List<Object>, Reg> made = new java.util.HashMap<>();
            for (int s : positions) {
                Src src = original.get(s);
                RegFile file = uniform(ins) ? RegFile.UR : RegFile.R;
                int comps = wide(ins, s) ? 2 : 1;
                List<Object> key = src.value() instanceof Imm ? List.of(file, comps, src.value()) : null;
                Reg fresh = key == null ? null : materialized.get(key);
                if (fresh == null) {
                    fresh = body.newVirtual(file, comps);
                    List<Instr> materialize = materialization(fresh, src.value(), ins.line());
                    if (materialize == null) {
                        restore(ins, original);
                        return null;
                    }
                    moves.addAll(materialize);
                    if (key != null) {
                        made.put(key, fresh);
                    }
                }
                ins.srcs().set(s, new Src(fresh, src.neg(), src.abs(), src.not()));
            }
            if (encodes(ins)) {
                materialized.putAll(made);
                return moves;
            }
            restore(ins, original);
            return null;
        }

        /** Instructions that put {@code value} into {@code fresh}, the first whose forms encode; null if none does. */
        List<Instr> materialization(Reg fresh, Operand value, int line) {
            List<List<Instr>> candidates = new ArrayList<>();
            if (fresh.file() == RegFile.UR) {
                if (value instanceof Imm) {
                    candidates.add(List.of(ins("UMOV", List.of(), fresh, value, line)));
                } else if (value instanceof CBank) {
                    candidates.add(List.of(ins("ULDC", List.of(), fresh, value, line)));
                }
            } else if (fresh.comps() == 2) {
                if (value instanceof Imm imm) {
                    long bits = imm.bits();
                    candidates.add(List.of(ins("MOV", List.of(), fresh.component(0), Imm.ofInt((int) bits), line),
                            ins("MOV", List.of(), fresh.component(1), Imm.ofInt((int) (bits >>> 32)), line)));
                } else if (value instanceof CBank c) {
                    candidates.add(List.of(ins("LDC", List.of("64"), fresh, c, line)));
                    if (c.index() == null) {
                        candidates.add(List.of(ins("MOV", List.of(), fresh.component(0), c, line),
                                ins("MOV", List.of(), fresh.component(1), CBank.of(c.bank(), c.offset() + 4), line)));
                    }
                }
            } else {
                if (value instanceof Imm || value instanceof Reg) {
                    candidates.add(List.of(ins("MOV", List.of(), fresh, value, line)));
                } else if (value instanceof CBank) {
                    candidates.add(List.of(ins("MOV", List.of(), fresh, value, line)));
                    candidates.add(List.of(ins("LDC", List.of(), fresh, value, line)));
                    candidates.add(List.of(new Instr(opcode("IMAD"), List.of("MOV", "U32"), List.of(fresh),
                            List.of(Src.of(Reg.RZ), Src.of(Reg.RZ), Src.of(value)), Guard.ALWAYS, line)));
                }
            }
            for (List<Instr> c : candidates) {
                if (c.stream().allMatch(this::encodes)) {
                    return c;
                }
            }
            return null;
        }

        boolean encodes(Instr ins) {
            return selector.encodable(standIn(ins));
        }
    }

    private static Instr ins(String op, List<String> mods, Reg dst, Operand src, int line) {
        return new Instr(opcode(op), mods, List.of(dst), List.of(Src.of(src)), Guard.ALWAYS, line);
    }

    private static OriOpcode opcode(String name) {
        return OriOpcodes.get().byName(name)
                .orElseThrow(() -> new IllegalStateException("Ori opcode table lacks " + name));
    }

    private static void restore(Instr ins, List<Src> original) {
        ins.srcs().clear();
        ins.srcs().addAll(original);
    }

    private static boolean hasDescriptor(Instr ins) {
        return ins.srcs().stream().anyMatch(s -> s.value() instanceof Reg r && r.file() == RegFile.UR && r.comps() == 2
                && r.whole().equals(r));
    }

    /** A source the legalizer may move into a register: an immediate, a constant, or a register of the other file. */
    private static boolean movable(Instr ins, int s) {
        Operand v = ins.srcs().get(s).value();
        if (v instanceof Imm || v instanceof CBank) {
            return true;
        }
        return v instanceof Reg r && !r.isZero() && r.file() == RegFile.UR && !uniform(ins) && r.comps() == 1;
    }

    /** A uniform-datapath instruction: its sources live in UR. */
    private static boolean uniform(Instr ins) {
        String n = ins.op().name();
        return n.startsWith("U") && !ins.dsts().isEmpty() && ins.dsts().get(0).file().isUniform();
    }

    /** A double-precision source (the first three sources of DADD/DMUL/DFMA, the two of DSETP). */
    private static boolean wide(Instr ins, int at) {
        if (ins.op().group() != OpcodeGroup.FLOAT64) {
            return false;
        }
        return at < (ins.op().name().equals("DFMA") ? 3 : 2);
    }

    private static boolean isCommutative(Instr ins) {
        return switch (ins.op().name()) {
            case "FADD", "FMUL", "FFMA", "DADD", "DMUL", "DFMA", "IMAD", "IADD3", "IMNMX", "FMNMX" -> true;
            default -> false;
        };
    }

    private static void swapFirstSources(Instr ins) {
        swapSources(ins, 0, 1);
    }

    private static void swapSources(Instr ins, int i, int j) {
        Src a = ins.srcs().get(i);
        ins.srcs().set(i, ins.srcs().get(j));
        ins.srcs().set(j, a);
    }

    private static List<List<Integer>> subsets(List<Integer> items, int k) {
        List<List<Integer>> out = new ArrayList<>();
        collect(items, k, 0, new ArrayList<>(), out);
        return out;
    }

    private static void collect(List<Integer> items, int k, int from, List<Integer> cur, List<List<Integer>> out) {
        if (cur.size() == k) {
            out.add(List.copyOf(cur));
            return;
        }
        for (int i = from; i < items.size(); i++) {
            cur.add(items.get(i));
            collect(items, k, i + 1, cur, out);
            cur.remove(cur.size() - 1);
        }
    }

    /**
     * A copy of {@code ins} with every virtual register replaced by a distinct physical one of its file, aligned to
     * its tuple size, as an allocation might give it: what the target's forms are checked against.
     */
    static Instr standIn(Instr ins) {
        Map<String, Reg> assigned = new HashMap<>();
        int[] next = {4, 4, 0, 0};
        List<Reg> dsts = new ArrayList<>();
        for (Reg d : ins.dsts()) {
            dsts.add(physical(d, assigned, next));
        }
        List<Src> srcs = new ArrayList<>();
        for (Src s : ins.srcs()) {
            Operand v = s.value();
            if (v instanceof Reg r) {
                v = physical(r, assigned, next);
            } else if (v instanceof Addr a) {
                v = new Addr(physical(a.base(), assigned, next),
                        a.uniformBase() == null ? null : physical(a.uniformBase(), assigned, next), a.offset());
            } else if (v instanceof CBank c && c.index() != null) {
                v = new CBank(c.bank(), c.offset(), physical(c.index(), assigned, next));
            }
            srcs.add(new Src(v, s.neg(), s.abs(), s.not()));
        }
        Guard g = ins.guard();
        if (g.predicate().virtual()) {
            g = new Guard(physical(g.predicate(), assigned, next), g.negated());
        }
        return new Instr(ins.op(), ins.mods(), dsts, srcs, g, ins.line());
    }

    private static Reg physical(Reg r, Map<String, Reg> assigned, int[] next) {
        if (!r.virtual()) {
            return r;
        }
        Reg whole = r.whole();
        Reg base = assigned.computeIfAbsent(whole.file() + ":" + whole.index(), k -> {
            int f = whole.file().ordinal();
            int align = whole.comps() >= 3 ? 4 : whole.comps();
            int at = (next[f] + align - 1) / align * align;
            int limit = whole.file().count();
            if (at + whole.comps() > limit) {
                at = 0;
            }
            next[f] = at + whole.comps();
            return Reg.phys(whole.file(), at, whole.comps());
        });
        return r.isPart() ? Reg.phys(r.file(), base.index() + r.part(), 1) : base;
    }
}
