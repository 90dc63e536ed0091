package org.jptxas.frontend.ptx.lower;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import org.jptxas.frontend.ptx.ast.Declarator;
import org.jptxas.frontend.ptx.ast.TuningDirective;
import org.jptxas.frontend.ptx.ast.VariableDecl;
import org.jptxas.ori.ir.BasicBlock;
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

    /** A virtual register by file and number, whatever its width (a read and a write of it may differ). */
    private record RegName(RegFile file, int index) {}

    /**
     * PTX may read a register no instruction writes (compilers leave such reads on paths that do not matter); the
     * value is arbitrary, so jptxas gives it zero at the entry, which keeps every virtual register defined.
     */
    List<Instr> undefinedReads(List<Instr> prologue) {
        Map<RegName, Reg> used = new java.util.LinkedHashMap<>();
        Set<RegName> defined = new HashSet<>();
        for (Instr in : prologue) { // the calling convention's entry copies define the parameters
            for (Reg r : in.dsts()) {
                if (r.virtual()) {
                    defined.add(new RegName(r.file(), r.index()));
                }
            }
        }
        for (BasicBlock b : lowerer.layout) {
            for (Instr in : b.instrs()) {
                for (Reg r : in.usedRegs()) {
                    if (r.virtual()) {
                        used.putIfAbsent(new RegName(r.file(), r.index()), r.whole());
                    }
                }
                for (Reg r : in.dsts()) {
                    if (r.virtual()) {
                        defined.add(new RegName(r.file(), r.index()));
                    }
                }
            }
        }
        List<Instr> out = new ArrayList<>();
        for (Map.Entry<RegName, Reg> e : used.entrySet()) {
            if (defined.contains(e.getKey())) {
                continue;
            }
            Reg r = e.getValue();
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

    /** First register of the parameter and return-value block of a device function's calling convention. */
    static final int ABI_FIRST_REG = 4;

    /**
     * A device function's calling convention: parameters arrive in consecutive registers from R4 (each parameter
     * aligned to its size), return values leave the same way; the entry copies them into the parameters' virtual
     * registers and every RET is preceded by copies out. An inliner replaces both copies with the call's values.
     */
    void abi(List<Instr> prologue) {
        int word = 0;
        for (VariableDecl v : lowerer.fn.params()) {
            for (Declarator d : v.declarators()) {
                for (Reg p : lowerer.paramRegisters(v, d)) {
                    word = (int) DataLayout.alignUp(word, p.comps());
                    for (int k = 0; k < p.comps() && ABI_FIRST_REG + word + k < 255; k++) {
                        prologue.add(new Instr(lowerer.ops.require("MOV"), List.of(), List.of(p.component(k)),
                                List.of(Src.of(Reg.phys(RegFile.R, ABI_FIRST_REG + word + k, 1))), Guard.ALWAYS,
                                lowerer.fn.pos().line()));
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
