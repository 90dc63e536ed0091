package org.jptxas.frontend.ptx.lower;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Operand;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;

/**
 * What the code of one kernel's section (the kernel and the subroutine copies it reaches) tells about the calls to
 * each callee, for the internal subroutines ptxas makes of them: the widest call (argument or result words, which the
 * return-address pair sits above), the constant each argument word gets from every call, the callees each function
 * calls, and the functions whose address is taken (those keep the calling convention).
 */
final class SectionCalls {
    private final Map<String, Integer> words = new HashMap<>();
    /** Per callee and argument word, the constant every call passes there; null once a call passes another value. */
    private Map<String, Map<Integer, Src>> constants = new HashMap<>();
    /** The functions scanned, by name, in the order scanned (their calls' constants are resolved from them). */
    private final Map<String, OriFunction> scanned = new java.util.LinkedHashMap<>();
    private final Map<String, Set<String>> callees = new HashMap<>();
    private final AddressedFunctions addressed = new AddressedFunctions();
    private final Map<String, Integer> pairs = new HashMap<>();

    /** Records the calls of {@code f} (named {@code name} in the module) and the addresses it takes. */
    void scan(String name, OriFunction f) {
        scanned.put(name, f);
        Map<Reg, Src> known = constantRegisters(f.body(), Map.of());
        Set<String> called = callees.computeIfAbsent(name, k -> new HashSet<>());
        for (BasicBlock b : f.body().blocks()) {
            for (Instr in : b.instrs()) {
                addressed.note(in);
                if (ModuleInliner.isCall(in)) {
                    String callee = ModuleInliner.callee(in);
                    called.add(callee);
                    words.merge(callee, CallSequences.words(in), Math::max);
                    record(in, known, constants.computeIfAbsent(callee, k -> new HashMap<>()));
                }
            }
        }
    }

    /**
     * Carries constant arguments on through the calls of the functions {@code specialized} names (the copies
     * {@link #specialized} gives their callers' constants): a register such a function sets from its own argument
     * word ({@code MOV %r, R(4+w)} at its entry) holds the constant its callers pass there, so a call passing it on
     * passes that constant, as ptxas specializes a flags argument through every level ({@code evaluate(flags)} calling
     * {@code evaluateImpl(1, flags, data)}). Starting from the constants the calls pass literally, every round
     * only adds constants the previous one proved, until a round adds none.
     */
    void propagateConstants(Predicate<String> specialized) {
        for (int round = 0; round <= scanned.size(); round++) {
            Map<String, Map<Integer, Src>> next = new HashMap<>();
            for (Map.Entry<String, OriFunction> e : scanned.entrySet()) {
                Map<Integer, Src> own = specialized.test(e.getKey()) ? constants(e.getKey()) : Map.of();
                Map<Reg, Src> known = constantRegisters(e.getValue().body(), own);
                for (BasicBlock b : e.getValue().body().blocks()) {
                    for (Instr in : b.instrs()) {
                        if (ModuleInliner.isCall(in)) {
                            record(in, known, next.computeIfAbsent(ModuleInliner.callee(in), k -> new HashMap<>()));
                        }
                    }
                }
            }
            if (next.equals(constants)) {
                return;
            }
            constants = next;
        }
    }

    /** Whether some code of the section takes {@code name}'s address (it may be called through a register). */
    boolean addressed(String name) {
        return addressed.contains(name);
    }

    /** The constants every call to {@code name} passes, by argument word (null where the calls differ). */
    Map<Integer, Src> constants(String name) {
        return constants.getOrDefault(name, Map.of());
    }

    /**
     * The return-address pair of internal subroutine {@code name}: above its argument and result words, and above
     * the pairs of the internal subroutines it calls, so that its own calls do not overwrite the address it returns
     * through (ptxas likewise gives each its own register). No pair goes above the convention's {@code R20}, so
     * that a subroutine needs no more registers than an ABI call does (a register limit such as
     * {@code --maxrregcount 24} still holds however deep the calls nest): past it, a subroutine takes the pair just
     * above its words and saves it in its frame, as its calls overwrite it.
     */
    int returnPair(String name, Predicate<String> internal) {
        Integer known = pairs.get(name);
        if (known != null) {
            return known;
        }
        int own = CallSequences.internalReturnPair(words.getOrDefault(name, 0));
        int pair = own;
        for (String callee : callees.getOrDefault(name, Set.of())) {
            if (internal.test(callee) && !callee.equals(name)) {
                pair = Math.max(pair, returnPair(callee, internal) + 2);
            }
        }
        if (pair > CallSequences.RETURN_ADDRESS) {
            pair = own;
        }
        pairs.put(name, pair);
        return pair;
    }

    /**
     * {@code g} specialized to its callers' constant arguments, as ptxas specializes the copy each kernel gets: the
     * entry copy of a parameter word every call passes the same constant in ({@code MOV %p, R(4+w)} before the first
     * call) moves the constant instead, so that optimization folds what depends on it (a flags argument's tests).
     * The words whose register the copy then no longer reads are added to {@code omitted}: the calls need not pass them.
     */
    static OriFunction specialized(OriFunction g, Map<Integer, Src> constants, Set<Integer> omitted) {
        if (constants.values().stream().allMatch(java.util.Objects::isNull) || g.body().blocks().isEmpty()) {
            return g;
        }
        FunctionBody body = CallSequences.copyOf(g.body());
        Set<Integer> replaced = new HashSet<>();
        for (Instr in : entryCopies(body)) {
            int word = argumentWord(in);
            if (constants.get(word) != null) {
                in.srcs().set(0, constants.get(word));
                replaced.add(word);
            }
        }
        // a word is left out of the calls only where nothing else in the copy reads its register
        for (BasicBlock b : body.blocks()) {
            for (Instr in : b.instrs()) {
                for (Reg r : in.usedRegs()) {
                    if (!r.virtual() && r.file() == RegFile.R) {
                        for (int k = 0; k < r.comps(); k++) {
                            replaced.remove(r.index() + k - CallSequences.FIRST_ARG);
                        }
                    }
                }
            }
        }
        omitted.addAll(replaced);
        return new OriFunction(g.name(), g.entry(), g.line(), body, g.attrs());
    }

    /** The entry copies of argument words ({@code MOV %r, R(4+w)} in the first block, before any call). */
    private static List<Instr> entryCopies(FunctionBody body) {
        List<Instr> out = new java.util.ArrayList<>();
        if (body.blocks().isEmpty()) {
            return out;
        }
        for (Instr in : body.blocks().get(0).instrs()) {
            if (ModuleInliner.isCall(in) || ModuleInliner.isIndirectCall(in)) {
                break;
            }
            if (argumentWord(in) >= 0 && in.op().name().equals("MOV") && in.srcs().size() == 1) {
                out.add(in);
            }
        }
        return out;
    }

    /** The argument word a one-register read of {@code in}'s first source names ({@code R(4+w)}), else -1. */
    private static int argumentWord(Instr in) {
        if (in.srcs().isEmpty() || !(in.srcs().get(0).value() instanceof Reg r) || r.virtual()
                || r.file() != RegFile.R || r.comps() != 1 || r.index() < CallSequences.FIRST_ARG
                || r.index() > CallSequences.INTERNAL_LAST_ARG) {
            return -1;
        }
        return r.index() - CallSequences.FIRST_ARG;
    }

    /** Whether {@code s} is a constant: an immediate or the zero register, unmodified. */
    private static boolean isConstant(Src s) {
        return !s.hasModifiers() && (s.value() instanceof Imm || s.value() instanceof Reg r && r.isZero());
    }

    /** Records in {@code seen} the constant {@code call} passes in each argument word. */
    private static void record(Instr call, Map<Reg, Src> known, Map<Integer, Src> seen) {
        for (Map.Entry<Integer, Src> a : CallSequences.argumentWords(call).entrySet()) {
            Operand v = a.getValue().value();
            Src value = isConstant(a.getValue()) ? a.getValue() : v instanceof Reg r ? known.get(r) : null;
            if (!seen.containsKey(a.getKey())) {
                seen.put(a.getKey(), value);
            } else if (value == null || !value.equals(seen.get(a.getKey()))) {
                seen.put(a.getKey(), null);
            }
        }
    }

    /**
     * The virtual registers (or parts) of {@code body} that hold one constant throughout: every write of the register
     * is an unguarded {@code MOV}, each to a part no other write touches, of a constant or of a register that holds
     * one (a call-site parameter's {@code st.param} of a constant, or of a register set once to a constant). An
     * entry copy of argument word w moves {@code arguments.get(w)} where that is known (the function's copy is
     * specialized to it).
     */
    private static Map<Reg, Src> constantRegisters(FunctionBody body, Map<Integer, Src> arguments) {
        Map<Instr, Src> specializedCopies = new java.util.IdentityHashMap<>();
        if (!arguments.isEmpty()) {
            for (Instr in : entryCopies(body)) {
                Src c = arguments.get(argumentWord(in));
                if (c != null) {
                    specializedCopies.put(in, c);
                }
            }
        }
        Map<Reg, Src> moved = new HashMap<>(); // the one source each register or part is moved from
        Set<Reg> spoiled = new HashSet<>();
        Map<Reg, Set<Integer>> partsWritten = new HashMap<>();
        for (BasicBlock b : body.blocks()) {
            for (Instr in : b.instrs()) {
                List<Reg> dsts = in.dsts();
                for (Reg d : dsts) {
                    if (!d.virtual()) {
                        continue;
                    }
                    Reg whole = d.whole();
                    boolean move = in.op().name().equals("MOV") && in.mods().isEmpty() && in.guard().isAlways()
                            && dsts.size() == 1 && in.srcs().size() == 1 && !in.srcs().get(0).hasModifiers()
                            && (d.isPart() || d.comps() == 1);
                    if (!move || !partsWritten.computeIfAbsent(whole, k -> new HashSet<>()).add(d.part())) {
                        spoiled.add(whole);
                    } else {
                        moved.put(d, specializedCopies.getOrDefault(in, in.srcs().get(0)));
                    }
                }
            }
        }
        moved.keySet().removeIf(r -> spoiled.contains(r.whole()));
        Map<Reg, Src> out = new HashMap<>();
        for (Reg r : moved.keySet()) {
            Src v = moved.get(r);
            for (int hops = 0; hops < 8 && v != null && !isConstant(v); hops++) { // along copies of copies
                v = v.value() instanceof Reg from && from.virtual() ? moved.get(from) : null;
            }
            if (v != null && isConstant(v)) {
                out.put(r, v);
            }
        }
        return out;
    }
}
