package org.jptxas.isel.codegen;

import org.jptxas.isel.regalloc.Allocation;
import org.jptxas.isel.regalloc.RegisterAllocationException;
import org.jptxas.isel.regalloc.RegisterLimits;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.diag.Diagnostic;
import org.jptxas.ori.ir.OriFunction;

/** The allocation stage over {@link org.jptxas.isel.regalloc.RegisterAllocator} (linear scan with spilling). */
public final class LinearScanAllocation implements RegisterAllocator {
    @Override
    public Result allocate(OriFunction function, CodegenContext cx) throws CompilationException {
        RegisterLimits limits = RegisterLimits.of(cx.profile(), cx.options().maxRegCount(), function.attrs().maxnreg());
        try {
            Allocation a = org.jptxas.isel.regalloc.RegisterAllocator.allocate(function, limits);
            return new Result(a.registers(), a.frameBytes(), a.spillStoreBytes(), a.spillLoadBytes());
        } catch (RegisterAllocationException e) {
            throw new CompilationException(Diagnostic.error(cx.sourceName(), function.line(),
                    "Register allocation failed for function '" + function.name() + "': " + e.getMessage()));
        }
    }
}
