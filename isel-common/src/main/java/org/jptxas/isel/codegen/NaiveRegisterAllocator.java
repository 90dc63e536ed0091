package org.jptxas.isel.codegen;

import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.diag.UnsupportedFeatureException;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;

/**
 * Bring-up stand-in for register allocation: every virtual register gets registers of its own, never reused
 * (tuples aligned to their size; R1 is left to the stack pointer). Correct, and fails by name when a file runs out.
 */
public final class NaiveRegisterAllocator implements RegisterAllocator {
    @Override
    public Result allocate(OriFunction function, CodegenContext context) throws CompilationException {
        // Tuple sizes first: a virtual register may be named with fewer components than it has.
        Map<Reg, Integer> comps = new HashMap<>();
        for (BasicBlock b : function.body().blocks()) {
            for (Instr in : b.instrs()) {
                RegRewriter.rewrite(in, r -> {
                    if (r.virtual()) {
                        comps.merge(Reg.virt(r.file(), r.index(), 1), r.comps(), Math::max);
                    }
                    return r;
                });
            }
        }
        Map<RegFile, Integer> next = new EnumMap<>(RegFile.class);
        next.put(RegFile.R, 2);
        next.put(RegFile.UR, 6); // UR4-5: the global memory descriptor of the bring-up emitter
        Map<Reg, Integer> assigned = new HashMap<>();
        int limit = context.maxRegisters() - 2;
        String[] overflow = {null};
        for (BasicBlock b : function.body().blocks()) {
            for (Instr in : b.instrs()) {
                RegRewriter.rewrite(in, r -> {
                    if (!r.virtual()) {
                        return r;
                    }
                    Reg key = Reg.virt(r.file(), r.index(), 1);
                    Integer base = assigned.get(key);
                    if (base == null) {
                        int n = comps.get(key);
                        int align = n == 3 ? 4 : n;
                        int at = next.getOrDefault(r.file(), 0);
                        at = (at + align - 1) / align * align;
                        int max = r.file() == RegFile.R ? Math.min(limit, r.file().count()) : r.file().count();
                        if (at + n > max) {
                            overflow[0] = r.file().prefix();
                            return Reg.phys(r.file(), 0, r.comps());
                        }
                        next.put(r.file(), at + n);
                        base = at;
                        assigned.put(key, base);
                    }
                    return Reg.phys(r.file(), base, r.comps());
                });
            }
        }
        if (overflow[0] != null) {
            throw new UnsupportedFeatureException(context.sourceName(), function.line(), "Function '" + function.name()
                    + "' needs more " + overflow[0] + " registers than the bring-up register allocator can give");
        }
        return Result.NONE;
    }
}
