package org.jptxas.frontend.ptx.lower;

import java.util.HashSet;
import java.util.Set;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.OriFunction;

/**
 * The functions whose address some code takes ({@code MOV r, 32@lo(f)}): called through a register, they keep the
 * calling convention. Collected over the whole module (which calls may pass words past the convention's registers)
 * and over one kernel's section (which subroutines of the section stay internal), by the same walk.
 */
final class AddressedFunctions {
    private final Set<String> names = new HashSet<>();

    /** The functions whose address some function of {@code functions} takes. */
    static AddressedFunctions in(Iterable<OriFunction> functions) {
        AddressedFunctions out = new AddressedFunctions();
        for (OriFunction f : functions) {
            out.note(f);
        }
        return out;
    }

    /** Adds the functions whose address {@code f} takes. */
    void note(OriFunction f) {
        for (BasicBlock b : f.body().blocks()) {
            for (Instr in : b.instrs()) {
                note(in);
            }
        }
    }

    /** Adds the functions whose address {@code in} takes (for a walk that looks at each instruction anyway). */
    void note(Instr in) {
        if (ModuleInliner.namesFunction(in)) {
            names.addAll(ModuleInliner.addressesTaken(in));
        }
    }

    /** Whether some code noted takes {@code name}'s address. */
    boolean contains(String name) {
        return names.contains(name);
    }
}
