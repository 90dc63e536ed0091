package org.jptxas.isel.codegen;

import java.util.function.Predicate;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.ori.opt.OptPipeline;
import org.jptxas.spi.IrObserver;

/**
 * The mid-level optimizer ({@link OptPipeline} of the {@code -O} level) as one stage; every inner pass is reported
 * to the {@link IrObserver} under its own name ({@code --dump-ir=constfold}), and {@code --verify-ir} checks after
 * each one.
 */
public final class OptimizerPass implements OriPass {
    /** The backend's answer to "does this instruction encode (after legalization)?", or null: passes then keep to
     *  the forms ptxas itself writes. */
    private final Predicate<Instr> encodable;

    public OptimizerPass() {
        this(null);
    }

    /** @param encodable whether an instruction encodes once legalized (the if-conversion asks it of guarded ones) */
    public OptimizerPass(Predicate<Instr> encodable) {
        this.encodable = encodable;
    }

    @Override
    public String name() {
        return "opt";
    }

    @Override
    public void run(OriFunction function, CodegenContext cx) throws CompilationException {
        // with full unrolling of counted loops at -O3, as ptxas 13
        OptPipeline p = OptPipeline.forLevel(cx.options().optLevel(), cx.options().fmad(), true).observedBy((pass, f, changed) -> {
            try {
                cx.observer().afterPass(pass.name(), f);
            } catch (CompilationException e) {
                throw new Observed(e);
            }
        });
        if (encodable != null) {
            p = p.encodableWhen(encodable);
        }
        try {
            p.run(function, cx.profile());
        } catch (Observed o) {
            throw o.cause;
        }
    }

    /** Carries the observer's checked exception through the optimizer. */
    private static final class Observed extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final transient CompilationException cause;

        Observed(CompilationException cause) {
            super(null, null, false, false);
            this.cause = cause;
        }
    }
}
