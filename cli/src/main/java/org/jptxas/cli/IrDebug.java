package org.jptxas.cli;

import java.io.PrintWriter;
import java.util.List;
import org.jptxas.spi.IrObserver;
import org.jptxas.ori.analysis.IrPrinter;
import org.jptxas.ori.analysis.IrVerifier;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.diag.Diagnostic;
import org.jptxas.ori.ir.OriFunction;

/**
 * {@code --dump-ir=PASS} (the Ori of each function after the pass named, or after every pass with {@code all}, on
 * standard output) and {@code --verify-ir} (the structural check after every pass; a failure is an internal error
 * naming the pass).
 */
final class IrDebug implements IrObserver {
    private final String dumpPass;
    private final boolean verify;
    private final PrintWriter out;

    IrDebug(String dumpPass, boolean verify, PrintWriter out) {
        this.dumpPass = dumpPass;
        this.verify = verify;
        this.out = out;
    }

    @Override
    public void afterPass(String pass, OriFunction function) throws CompilationException {
        if (dumpPass != null && (dumpPass.equals("all") || dumpPass.equals(pass))) {
            out.println("// ---- Ori after " + pass + ": " + function.name());
            out.print(IrPrinter.print(function));
        }
        if (verify) {
            List<String> problems = IrVerifier.verify(function.name(), function.body());
            if (!problems.isEmpty()) {
                throw new CompilationException(Diagnostic.error(null, 0, "Internal error: Ori check failed after pass '"
                        + pass + "': " + String.join("; ", problems)));
            }
        }
    }
}
