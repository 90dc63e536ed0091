package org.jptxas.isel.codegen;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.isel.select.SassLine;
import org.jptxas.isel.select.SassTextPrinter;
import org.jptxas.isel.select.SelectedInstr;
import org.jptxas.isel.select.SelectionException;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.diag.Diagnostic;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.BlockLabel;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.opcode.OriOpcodes;

import org.jptxas.ori.target.TargetFeature;
/**
 * Bring-up stand-in for instruction selection: prints every allocated Ori instruction as it is (its sm_80
 * spelling) with the target's {@link SassTextPrinter}. On sm_90 a global access names the memory descriptor
 * {@code desc[UR4]}, loaded once at the entry as ptxas does. The block-label mapping ({@link #blockLabels}) is shared
 * with real emitters.
 */
public final class PassThroughSassEmitter implements SassEmitter {
    static final Reg DESCRIPTOR = Reg.phys(RegFile.UR, 4, 2);

    @Override
    public List<CodeLine> emit(OriFunction function, CodegenContext context) throws CompilationException {
        SassTextPrinter printer = SassTextPrinter.of(context.description());
        FunctionBody body = function.body();
        String[] labels = blockLabels(body);
        List<CodeLine> out = new ArrayList<>();
        boolean descriptor = context.has(TargetFeature.GLOBAL_DESCRIPTOR_OPERAND) && usesGlobalMemory(body);
        if (descriptor) {
            Instr load = new Instr(OriOpcodes.get().byName("ULDC").orElseThrow(), List.of("64"), List.of(DESCRIPTOR),
                    List.of(Src.of(CBank.of(0, context.profile().memoryDescriptor()))), Guard.ALWAYS, 0);
            out.add(CodeLine.of(printer.print(load, id -> labels[id]).op()));
        }
        for (BasicBlock b : body.blocks()) {
            String pending = labels[b.id()];
            for (Instr in : b.instrs()) {
                CodeLine indirect = JumpTables.line(in, pending, id -> labels[id], context.description().isa());
                if (indirect != null) {
                    out.add(indirect);
                    pending = null;
                    continue;
                }
                SelectedInstr s = SelectedInstr.passThrough(in);
                if (descriptor) {
                    s = withDescriptor(s);
                }
                SassLine line;
                try {
                    line = printer.print(s, id -> labels[id]);
                } catch (SelectionException e) {
                    throw new CompilationException(Diagnostic.error(context.sourceName(), in.line(),
                            "Internal error: no " + context.target().name() + " encoding for '" + in + "': "
                                    + e.getMessage()));
                }
                out.add(new CodeLine(pending, line.text(), line.assemblyText(), null, line.relocation(), in.line(),
                        line.op()));
                pending = null;
            }
        }
        return out;
    }

    private static boolean usesGlobalMemory(FunctionBody body) {
        for (BasicBlock b : body.blocks()) {
            for (Instr in : b.instrs()) {
                if (globalAccess(in.op().name()) && in.srcs().stream().anyMatch(s -> s.value() instanceof Addr a && a.wide())) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean globalAccess(String op) {
        return switch (op) {
            case "LDG", "STG", "ATOMG", "RED", "LD", "ST", "ATOM" -> true;
            default -> false;
        };
    }

    private static SelectedInstr withDescriptor(SelectedInstr s) {
        String base = s.mnemonic().split("\\.", 2)[0];
        if (!globalAccess(base)) {
            return s;
        }
        List<Src> ops = new ArrayList<>(s.operands());
        for (int i = 0; i < ops.size(); i++) {
            if (ops.get(i).value() instanceof Addr a && a.wide()) {
                ops.add(i, Src.of(DESCRIPTOR));
                return new SelectedInstr(s.guard(), s.mnemonic(), ops, i, s.line());
            }
        }
        return s;
    }

    /**
     * For each block, the label of its first instruction when a branch targets it, else null; an empty block takes
     * the label of the block it falls into.
     */
    public static String[] blockLabels(FunctionBody body) {
        int n = body.blocks().size();
        boolean[] targeted = new boolean[n];
        for (BasicBlock b : body.blocks()) {
            for (Instr in : b.instrs()) {
                for (BlockLabel t : in.branchTargets()) {
                    targeted[t.block()] = true;
                }
            }
        }
        String[] names = new String[n];
        String carried = null;
        for (int i = 0; i < n; i++) {
            if (targeted[i] && carried == null) {
                carried = ".L_bb" + i;
            }
            if (!body.block(i).instrs().isEmpty()) {
                names[i] = carried;
                carried = null;
            }
        }
        for (int i = n - 1; i >= 0; i--) {
            if (body.block(i).instrs().isEmpty()) {
                names[i] = i + 1 < n ? names[i + 1] : null;
            }
        }
        return names;
    }
}
