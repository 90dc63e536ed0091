package org.jptxas.frontend.ptx.lower;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.OptionalInt;
import org.jptxas.frontend.ptx.ast.Declarator;
import org.jptxas.frontend.ptx.ast.TuningDirective;
import org.jptxas.frontend.ptx.ast.VariableDecl;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.CallingConvention;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;

/**
 * The function's entry: parameters in ABI registers (device functions), the registers read before any write, and the
 * tuning directives.
 */
final class EntryAbi {
    private final FunctionLowerer lowerer;

    EntryAbi(FunctionLowerer lowerer) {
        this.lowerer = lowerer;
    }

    /**
     * PTX may read a register no instruction writes (compilers leave such reads on paths that do not matter); the
     * value is arbitrary, so jptxas gives it zero at the entry, which keeps every virtual register defined.
     * Registers are told apart by file and number, whatever their width (a read and a write of one may differ), in
     * bit sets per file: a hashed key per mention cost a large function's lowering a visible share.
     */
    List<Instr> undefinedReads(List<Instr> prologue) {
        BitSet[] defined = new BitSet[RegFile.values().length];
        BitSet[] read = new BitSet[RegFile.values().length];
        for (int f = 0; f < defined.length; f++) {
            defined[f] = new BitSet();
            read[f] = new BitSet();
        }
        List<Reg> firstReads = new ArrayList<>(); // whole registers, in the order of their first read
        for (Instr in : prologue) { // the calling convention's entry copies define the parameters
            markVirtual(in.dsts(), defined);
        }
        List<BasicBlock> layout = lowerer.layout;
        for (int bi = 0; bi < layout.size(); bi++) { // indexed loops: C1 allocates a for-each's iterator
            List<Instr> instrs = layout.get(bi).instrs();
            for (int i = 0; i < instrs.size(); i++) {
                Instr in = instrs.get(i);
                List<Reg> used = in.usedRegs();
                for (int u = 0; u < used.size(); u++) {
                    Reg r = used.get(u);
                    BitSet seen = read[r.file().ordinal()];
                    if (r.virtual() && !seen.get(r.index())) {
                        seen.set(r.index());
                        firstReads.add(r.whole());
                    }
                }
                markVirtual(in.dsts(), defined);
            }
        }
        List<Instr> out = new ArrayList<>();
        for (Reg r : firstReads) {
            if (defined[r.file().ordinal()].get(r.index())) {
                continue;
            }
            if (r.file().isPredicate()) {
                out.add(new Instr(lowerer.ops.require("PLOP3"), List.of("LUT"), List.of(r, Reg.PT),
                        List.of(Src.of(Reg.PT), Src.of(Reg.PT), Src.of(Reg.PT), Src.of(Imm.ofInt(0)), Src.of(Imm.ofInt(0))),
                        Guard.ALWAYS, lowerer.fn.pos().line()));
            } else {
                for (int k = 0; k < r.comps(); k++) {
                    out.add(new Instr(lowerer.ops.require("MOV"), List.of(), List.of(r.component(k)), List.of(Src.of(Reg.RZ)),
                            Guard.ALWAYS, lowerer.fn.pos().line()));
                }
            }
        }
        return out;
    }

    private static void markVirtual(List<Reg> regs, BitSet[] into) {
        for (int i = 0; i < regs.size(); i++) {
            Reg r = regs.get(i);
            if (r.virtual()) {
                into[r.file().ordinal()].set(r.index());
            }
        }
    }

    /** First register of the parameter and return-value block of a device function's calling convention. */
    static final int ABI_FIRST_REG = CallingConvention.FIRST_ARGUMENT;

    /**
     * A device function's calling convention: parameters arrive in consecutive registers from R4 (each parameter
     * aligned to its size), return values leave the same way; the entry copies them into the parameters' virtual
     * registers and every RET is preceded by copies out. An inliner replaces both copies with the call's values.
     * The entry copies take {@code line}, the body's first (ptxas reads the parameters on the line of the function's
     * first {@code .loc}, where PTX's {@code ld.param}s are).
     */
    void abi(List<Instr> prologue, int line) {
        int word = 0;
        for (VariableDecl v : lowerer.fn.params()) {
            for (Declarator d : v.declarators()) {
                for (Reg p : lowerer.paramRegisters(v, d)) {
                    word = (int) DataLayout.alignUp(word, p.comps());
                    for (int k = 0; k < p.comps() && ABI_FIRST_REG + word + k < 255; k++) {
                        prologue.add(new Instr(lowerer.ops.require("MOV"), List.of(), List.of(p.component(k)),
                                List.of(Src.of(Reg.phys(RegFile.R, ABI_FIRST_REG + word + k, 1))), Guard.ALWAYS,
                                line));
                    }
                    word += p.comps();
                }
            }
        }
        List<Instr> out = new ArrayList<>();
        word = 0;
        for (VariableDecl v : lowerer.fn.returns()) {
            for (Declarator d : v.declarators()) {
                Reg p = lowerer.paramRegister(v, d);
                word = (int) DataLayout.alignUp(word, p.comps());
                for (int k = 0; k < p.comps() && ABI_FIRST_REG + word + k < 255; k++) {
                    out.add(new Instr(lowerer.ops.require("MOV"), List.of(), List.of(Reg.phys(RegFile.R, ABI_FIRST_REG + word + k, 1)),
                            List.of(Src.of(p.component(k))), Guard.ALWAYS, lowerer.fn.pos().line()));
                }
                word += p.comps();
            }
        }
        if (out.isEmpty()) {
            return;
        }
        for (BasicBlock b : lowerer.layout) {
            Instr t = b.last();
            if (t != null && t.op().name().equals("RET")) {
                int at = b.instrs().size() - 1;
                for (Instr m : out) {
                    Instr copy = new Instr(m.op(), m.mods(), m.dsts(), m.srcs(), t.guard(), t.line());
                    b.instrs().add(at++, copy);
                }
            }
        }
    }

    static String typeName(VariableDecl v) {
        return (v.vectorLength() > 0 ? "v" + v.vectorLength() + "." : "") + v.type().ptxName();
    }

    OptionalInt tuning(TuningDirective.Kind kind) {
        for (TuningDirective t : lowerer.fn.tuning()) {
            if (t.kind() == kind && !t.values().isEmpty()) {
                return OptionalInt.of(t.values().get(0).intValue());
            }
        }
        return OptionalInt.empty();
    }

    List<Integer> tuningList(TuningDirective.Kind kind) {
        for (TuningDirective t : lowerer.fn.tuning()) {
            if (t.kind() == kind) {
                return t.values().stream().map(Long::intValue).toList();
            }
        }
        return List.of();
    }
}
