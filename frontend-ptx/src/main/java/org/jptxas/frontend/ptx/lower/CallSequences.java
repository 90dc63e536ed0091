package org.jptxas.frontend.ptx.lower;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.diag.UnsupportedFeatureException;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.CallingConvention;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.ir.Sym;
import org.jptxas.ori.opcode.OriOpcodes;

/**
 * True calls. Internal subroutines (see {@link SectionCalls}) take arguments and results as below and return through
 * a pair of their own, saving nothing; the others follow NVIDIA's calling convention, as ptxas 13 emits it:
 * arguments and results travel in {@code R4} upwards (each value aligned to its size in words), the caller puts
 * the return address in {@code R20}/{@code R21} just before {@code CALL.REL.NOINC}, and the callee returns with
 * {@code RET.REL.NODEC} through it. {@code R2} and {@code R16}… (but {@code R20}/{@code R21}) are preserved by the
 * callee, every other general register, every predicate and {@code UR0}–{@code UR35}/{@code UP0}–{@code UP6} may
 * be clobbered (the registers ptxas keeps live across an external call).
 *
 * <p>In Ori, a call becomes {@code MOV R(4+w), arg} copies, then the call pseudo-instruction whose sources are the
 * target and those argument registers and whose destinations are every register the callee may clobber (so
 * register allocation keeps nothing live there across it), then {@code MOV result, R(4+w)} copies. A subroutine's
 * {@code RET} reads {@code R20}/{@code R21}. Code generation ({@code CallFrames}) later writes the return-address
 * moves, the callee-saved register saves (with {@code R20}/{@code R21} in a subroutine that calls) and the frame.
 */
public final class CallSequences {
    /** First register of the argument/result block. */
    static final int FIRST_ARG = EntryAbi.ABI_FIRST_REG;
    /** Last register an argument or result may take (from R16 on, registers are callee-saved). */
    static final int LAST_ARG = 15;
    /**
     * Last register an argument or result of an internal subroutine may take: no register is callee-saved there, so
     * a call may pass more words than the convention's twelve (progminer's keccak takes eighteen), within the limit
     * {@link #internalLastArg} sets.
     */
    static final int INTERNAL_LAST_ARG = 63;
    /** The return-address pair. */
    static final int RETURN_ADDRESS = CallingConvention.RETURN_ADDRESS;
    /** The register pair a call through an address reads the address from. */
    static final int INDIRECT_TARGET = 6;
    /** Uniform registers from here on are preserved across calls. */
    static final int FIRST_SAVED_UR = 36;

    private CallSequences() {}

    /** ptxas's name of {@code callee}'s copy placed in {@code owner}'s section. */
    public static String subroutineName(String owner, String callee) {
        return "$" + owner + "$" + callee;
    }

    /**
     * {@code f} with every call renamed by {@code local} and expanded to the convention's copies; a subroutine
     * (not {@code owner} itself, not a kernel) also keeps its return address.
     */
    static OriFunction apply(OriFunction f, UnaryOperator<String> local, java.util.function.Predicate<String> external,
            String owner, String fileName, String target) throws CompilationException {
        return apply(f, local, external, owner, fileName, target, RETURN_ADDRESS, Map.of());
    }

    /**
     * As above, a subroutine returning through the register pair {@code returnPair}: the convention's
     * {@link #RETURN_ADDRESS}, or for an internal subroutine ({@link #internalReturnPair}) a pair above its
     * arguments and results; its calls leave out the argument words {@code omitted} names for each callee (constants
     * the callee's copy has as its own).
     */
    static OriFunction apply(OriFunction f, UnaryOperator<String> local, java.util.function.Predicate<String> external,
            String owner, String fileName, String target, int returnPair, Map<String, java.util.Set<Integer>> omitted)
            throws CompilationException {
        if (f.entry() && !callsOrNamesFunction(f.body())) {
            return f; // nothing to rename or expand: the copy below would be dropped (a whole program's kernels)
        }
        OriOpcodes ops = OriOpcodes.get();
        FunctionBody body = copyOf(f.body());
        boolean any = false;
        for (BasicBlock b : body.blocks()) {
            List<Instr> out = new ArrayList<>();
            for (Instr in : b.instrs()) {
                if (ModuleInliner.isCall(in)) {
                    any = true;
                    String callee = ModuleInliner.callee(in);
                    // a function of another object is called absolutely, through its symbol (the linker relocates it)
                    expand(in, Src.of(new Sym(local.apply(callee), Sym.Kind.FUNCTION)), owner, ops, out, fileName,
                            target, external.test(callee) ? List.of("ABS", "NOINC") : List.of("REL", "NOINC"),
                            omitted.getOrDefault(callee, java.util.Set.of()),
                            omitted.containsKey(callee) ? INTERNAL_LAST_ARG : LAST_ARG);
                } else if (ModuleInliner.isIndirectCall(in)) {
                    any = true;
                    expand(in, in.srcs().get(0), owner, ops, out, fileName, target, List.of("REL", "NOINC"),
                            java.util.Set.of(), LAST_ARG);
                } else {
                    for (int k = 0; k < in.srcs().size(); k++) { // a function's address: its local copy's
                        Src src = in.srcs().get(k);
                        if (src.value() instanceof Sym sym && sym.kind() == Sym.Kind.FUNCTION) {
                            any = true;
                            in.srcs().set(k, Src.of(new Sym(local.apply(sym.name()), sym.kind(), sym.part(),
                                    sym.addend())));
                        }
                    }
                    out.add(in);
                }
            }
            b.instrs().clear();
            b.instrs().addAll(out);
        }
        boolean subroutine = !f.entry() && !f.name().equals(owner);
        if (!f.entry()) {
            // RET reads the return address where the caller left it; the allocator keeps R20/R21 free wherever
            // that value is live, and a subroutine that calls saves and reloads the pair (code generation).
            for (BasicBlock b : body.blocks()) {
                List<Instr> is = b.instrs();
                for (int i = 0; i < is.size(); i++) {
                    Instr in = is.get(i);
                    if (in.op().name().equals("RET")) {
                        // a subroutine returns relative to its section's function, a function of its own absolutely
                        // a slow path returns through a pair just above its arguments (as ptxas's do), which keeps a
                        // kernel's register count below the convention's R20/R21
                        int ra = SlowPathSubroutines.isSlowPath(f.name()) ? SlowPathSubroutines.RETURN_ADDRESS
                                : subroutine ? returnPair : RETURN_ADDRESS;
                        List<Src> srcs = new ArrayList<>(List.of(Src.of(Reg.phys(RegFile.R, ra, 1)),
                                Src.of(Reg.phys(RegFile.R, ra + 1, 1))));
                        if (subroutine) {
                            srcs.add(Src.of(new Sym(owner, Sym.Kind.FUNCTION)));
                        }
                        is.set(i, new Instr(in.op(), subroutine ? List.of("REL", "NODEC") : List.of("ABS", "NODEC"),
                                List.of(), srcs, in.guard(), in.line()));
                    }
                }
            }
        }
        return any || !f.entry() ? new OriFunction(f.name(), f.entry(), f.line(), body, f.attrs()) : f;
    }

    /** Whether an instruction of {@code body} calls (directly or through an address) or names a function. */
    private static boolean callsOrNamesFunction(FunctionBody body) {
        for (BasicBlock b : body.blocks()) {
            for (Instr in : b.instrs()) {
                if (ModuleInliner.namesFunction(in) || ModuleInliner.isIndirectCall(in)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** A deep copy (instructions are mutable; the inliner may still copy from the original). */
    static FunctionBody copyOf(FunctionBody src) {
        FunctionBody out = new FunctionBody();
        out.copyNamesFrom(src);
        for (RegFile file : RegFile.values()) {
            for (int i = 0; i < src.virtualCount(file); i++) {
                out.newVirtual(file, 1);
            }
        }
        for (BasicBlock b : src.blocks()) {
            BasicBlock c = out.addBlock(b.label());
            c.setNoUnroll(b.noUnroll());
            for (Instr in : b.instrs()) {
                c.instrs().add(new Instr(in.op(), in.mods(), new ArrayList<>(in.dsts()), new ArrayList<>(in.srcs()),
                        in.guard(), in.line()));
            }
        }
        return out;
    }

    /**
     * The call's copies around the call pseudo-instruction: a direct call's sources are the target symbol and the
     * argument registers; a call through an address first moves the address into {@code R6}/{@code R7} (the only
     * register pair the learned forms of {@code CALL.REL.NOINC R6} take) and its sources are those two registers,
     * the section owner's symbol (the function the address is relative to) and the argument registers.
     */
    private static void expand(Instr call, Src target, String owner, OriOpcodes ops, List<Instr> out, String fileName,
            String arch, List<String> mods, java.util.Set<Integer> omitted, int lastArg) throws CompilationException {
        Guard g = call.guard();
        Map<Integer, Src> args = arguments(call);
        args.keySet().removeAll(omitted);
        Map<Integer, Src> res = results(call);
        if (!fitsRegisters(args, res, lastArg)) {
            throw new UnsupportedFeatureException(fileName, call.line(), "Instruction 'call' not yet supported for "
                    + arch + " (arguments or results beyond " + (lastArg - FIRST_ARG + 1) + " words)");
        }
        List<Src> srcs = new ArrayList<>();
        if (target.value() instanceof Reg address) {
            if (args.containsKey(INDIRECT_TARGET - FIRST_ARG) || args.containsKey(INDIRECT_TARGET + 1 - FIRST_ARG)) {
                throw new UnsupportedFeatureException(fileName, call.line(), "Instruction 'call' not yet supported for "
                        + arch + " (indirect call with more than " + (INDIRECT_TARGET - FIRST_ARG) + " argument words)");
            }
            for (int k = 0; k < 2; k++) {
                Reg r = Reg.phys(RegFile.R, INDIRECT_TARGET + k, 1);
                out.add(new Instr(ops.require("MOV"), List.of(), List.of(r), List.of(Src.of(address.component(k))), g,
                        call.line()));
                srcs.add(Src.of(r));
            }
            srcs.add(Src.of(new Sym(owner, Sym.Kind.FUNCTION)));
        } else {
            srcs.add(target);
        }
        for (Map.Entry<Integer, Src> a : new java.util.TreeMap<>(args).entrySet()) {
            Reg r = Reg.phys(RegFile.R, FIRST_ARG + a.getKey(), 1);
            out.add(new Instr(ops.require("MOV"), List.of(), List.of(r), List.of(a.getValue()), g, call.line()));
            srcs.add(Src.of(r));
        }
        out.add(new Instr(call.op(), mods, clobbered(), srcs, g, call.line()));
        for (Map.Entry<Integer, Src> r : new java.util.TreeMap<>(res).entrySet()) {
            out.add(new Instr(ops.require("MOV"), List.of(), List.of((Reg) r.getValue().value()),
                    List.of(Src.of(Reg.phys(RegFile.R, FIRST_ARG + r.getKey(), 1))), g, call.line()));
        }
    }

    /**
     * The return-address pair of an internal subroutine (one its section's code alone calls, directly: not
     * recursive, its address never taken) whose calls pass {@code words} argument or result words: the first even
     * register above them, as ptxas places a private subroutine's return address among the registers it already
     * uses. Its callers' calls clobber what its allocation writes, so it saves no register (code generation's
     * {@code FunctionCodegen}).
     */
    static int internalReturnPair(int words) {
        int above = FIRST_ARG + words;
        return (above + 1) / 2 * 2;
    }

    /** The argument or result words {@code call} (a call pseudo-instruction) passes, whichever are more. */
    static int words(Instr call) {
        int highest = Math.max(arguments(call).keySet().stream().mapToInt(Integer::intValue).max().orElse(-1),
                results(call).keySet().stream().mapToInt(Integer::intValue).max().orElse(-1));
        return highest + 1;
    }

    /** Every register a callee may change. */
    static List<Reg> clobbered() {
        List<Reg> out = new ArrayList<>();
        out.add(Reg.phys(RegFile.R, 0, 1));
        for (int r = 3; r <= LAST_ARG; r++) {
            out.add(Reg.phys(RegFile.R, r, 1));
        }
        out.add(Reg.phys(RegFile.R, RETURN_ADDRESS, 1));
        out.add(Reg.phys(RegFile.R, RETURN_ADDRESS + 1, 1));
        for (int p = 0; p < RegFile.P.count(); p++) {
            out.add(Reg.phys(RegFile.P, p, 1));
        }
        for (int u = 0; u < FIRST_SAVED_UR; u++) {
            out.add(Reg.phys(RegFile.UR, u, 1));
        }
        for (int p = 0; p < RegFile.UP.count(); p++) {
            out.add(Reg.phys(RegFile.UP, p, 1));
        }
        return out;
    }

    /**
     * Whether the calling convention passes every argument and result of {@code call} in general registers: they fit
     * {@code R4} to {@code lastArg} and none is a predicate (a {@code .reg .pred} parameter, which the copies into
     * {@code R4}... cannot move; ptxas refuses such calls in ABI compilation, jptxas inlines them).
     */
    static boolean passesInRegisters(Instr call, int lastArg) {
        Map<Integer, Src> args = arguments(call);
        Map<Integer, Src> res = results(call);
        return fitsRegisters(args, res, lastArg) && generalValues(args) && generalValues(res);
    }

    private static boolean generalValues(Map<Integer, Src> words) {
        for (Src w : words.values()) {
            if (w.value() instanceof Reg r && r.file() != RegFile.R) {
                return false;
            }
        }
        return true;
    }

    /** A call pseudo-instruction's arguments by calling-convention word. */
    static Map<Integer, Src> argumentWords(Instr call) {
        return arguments(call);
    }

    /** A call's arguments by calling-convention word (its first source is the target). */
    private static Map<Integer, Src> arguments(Instr call) {
        return words(call.srcs().subList(1, call.srcs().size()));
    }

    /** A call's results by calling-convention word. */
    private static Map<Integer, Src> results(Instr call) {
        List<Src> results = new ArrayList<>();
        for (Reg d : call.dsts()) {
            results.add(Src.of(d));
        }
        return words(results);
    }

    private static boolean fitsRegisters(Map<Integer, Src> args, Map<Integer, Src> results, int lastArg) {
        int highest = Math.max(args.keySet().stream().mapToInt(Integer::intValue).max().orElse(-1),
                results.keySet().stream().mapToInt(Integer::intValue).max().orElse(-1));
        return FIRST_ARG + highest <= lastArg;
    }

    /**
     * The last register an internal subroutine's call may pass a word in under a limit of {@code registerLimit}
     * registers per thread: its words and the return pair above them take at most half the limit, the rest is left
     * to the code (at the default limit, all of {@link #INTERNAL_LAST_ARG}); never less than the convention's
     * {@link #LAST_ARG}. ptxas passes more still, moving the return address to the stack under a tight limit
     * ({@code --maxrregcount 24} with eighteen words); jptxas inlines such a call instead.
     */
    static int internalLastArg(int registerLimit) {
        int last = LAST_ARG;
        while (last < INTERNAL_LAST_ARG && internalReturnPair(last + 1 - FIRST_ARG + 1) + 2 <= registerLimit / 2) {
            last++;
        }
        return last;
    }

    /** Values by calling-convention word: each aligned to its size in words, wide registers as their parts. */
    static Map<Integer, Src> words(List<Src> values) {
        Map<Integer, Src> words = new HashMap<>();
        int word = 0;
        for (Src v : values) {
            if (v.value() instanceof Reg r && r.width() > 1) {
                int n = r.width();
                word = (word + n - 1) / n * n;
                for (int k = 0; k < n; k++) {
                    words.put(word + k, Src.of(r.component(k)));
                }
                word += n;
            } else {
                words.put(word++, v);
            }
        }
        return words;
    }
}
