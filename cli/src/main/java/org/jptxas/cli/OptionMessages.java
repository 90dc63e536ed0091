package org.jptxas.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jptxas.frontend.ptx.ast.Block;
import org.jptxas.frontend.ptx.ast.FunctionDecl;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.PtxModule;
import org.jptxas.frontend.ptx.ast.SectionDirective;
import org.jptxas.frontend.ptx.ast.Statement;
import org.jptxas.cubin.ResourceReport;
import org.jptxas.ori.diag.Diagnostic;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.ori.ir.OriModule;

/**
 * The messages and effects of ptxas options that look at the program: {@code -warn-double-usage},
 * {@code -warn-lmem-usage}, {@code --warn-on-spills}, the tensor-memory checks and {@code -e}, each in ptxas 13's
 * words.
 */
final class OptionMessages {
    private OptionMessages() {}

    /** {@code -warn-double-usage}: one warning per instruction with a {@code .f64} type, at its line. */
    static List<Diagnostic> doublePrecision(String file, PtxModule module) {
        List<Diagnostic> out = new ArrayList<>();
        for (FunctionDecl f : module.functions()) {
            if (f.body() != null) {
                doubles(file, f.body(), out);
            }
        }
        return out;
    }

    private static void doubles(String file, Block block, List<Diagnostic> out) {
        for (Statement s : block.statements()) {
            if (s instanceof Block b) {
                doubles(file, b, out);
            } else if (s instanceof Instruction i && i.modifiers().contains("f64")) {
                out.add(Diagnostic.warning(file, i.pos().line(), "Program is doing double precision computations."));
            }
        }
    }

    /**
     * {@code -g}, or a {@code .target} listing {@code debug} ({@code targetDebug}), which ptxas compiles as with
     * {@code -g}: ptxas's warnings for the DWARF sections the PTX does not carry (it builds the cubin's
     * {@code .debug_info} from them), in its wording, the message starting with a space, and its note that a
     * {@code .debug_info} without {@code .debug_abbrev} is skipped; under {@code .target debug}, a PTX without
     * either is an error instead.
     */
    static List<Diagnostic> missingDebugSections(PtxModule module, boolean targetDebug) {
        List<String> present = module.items().stream().filter(SectionDirective.class::isInstance)
                .map(i -> ((SectionDirective) i).name()).toList();
        boolean abbrev = present.contains(".debug_abbrev");
        boolean info = present.contains(".debug_info");
        List<Diagnostic> out = new ArrayList<>();
        if (targetDebug && !abbrev && !info) {
            out.add(Diagnostic.error(null, 0, "Debug information not found in presence of .target debug"));
            return out;
        }
        if (!abbrev) {
            out.add(Diagnostic.warning(null, 0, " .debug_abbrev section not found"));
        }
        if (!info) {
            out.add(Diagnostic.warning(null, 0, " .debug_info section not found"));
        }
        if (info && !abbrev) {
            out.add(Diagnostic.info("skipping .debug_info section due to missing .debug_abbrev section"));
        }
        return out;
    }

    /**
     * {@code -g-tmem-access-check} / {@code -gno-tmem-access-check}: tcgen05 exists from sm_100 on; for older
     * {@code .target}s (every one jptxas generates code for) ptxas says it ignores them.
     */
    static Optional<Diagnostic> tensorMemoryCheck(PtxModule module) {
        String target = module.target().flatMap(t -> t.architectures().stream().findFirst()).orElse("sm_75");
        int sm = smNumber(target);
        if (sm >= 100) {
            return Optional.empty();
        }
        return Optional.of(Diagnostic.info("Command line option '--g-tensor-memory-access-check / "
                + "--gno-tensor-memory-access-check' not supported for '.target " + target + "', will be ignored"));
    }

    private static int smNumber(String arch) {
        String digits = arch.replaceAll("^(sm|compute)_", "").replaceAll("[a-z]+$", "");
        try {
            return Integer.parseInt(digits);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** {@code -e}: the module with only the named entry functions (device functions stay). */
    static OriModule onlyEntries(OriModule module, Set<String> entries) {
        if (entries.isEmpty()) {
            return module;
        }
        List<OriFunction> kept = module.functions().stream().filter(f -> !f.entry() || entries.contains(f.name()))
                .toList();
        return module.withFunctions(kept);
    }

    /**
     * {@code -warn-lmem-usage} and {@code --warn-on-spills}, from the resource report's function properties: for
     * each function, ptxas's local-memory warning (a stack frame) and then its spill warning.
     */
    static List<Diagnostic> afterCompile(List<ResourceReport.FunctionUsage> usage, boolean spills,
                                         boolean localMemory) {
        List<Diagnostic> out = new ArrayList<>();
        if (!spills && !localMemory) {
            return out;
        }
        for (ResourceReport.FunctionUsage f : ResourceReport.propertiesOrder(usage)) {
            if (localMemory && f.stackFrame() > 0) {
                out.add(Diagnostic.warning(null, 0, "Local memory used for function '" + f.name()
                        + "', size of stack frame: " + f.stackFrame() + " bytes"));
            }
            if (spills && (f.spillStores() > 0 || f.spillLoads() > 0)) {
                out.add(Diagnostic.warning(null, 0, "Registers are spilled to local memory in function '" + f.name()
                        + "', " + f.spillStores() + " bytes spill stores, " + f.spillLoads() + " bytes spill loads"));
            }
        }
        return out;
    }
}
