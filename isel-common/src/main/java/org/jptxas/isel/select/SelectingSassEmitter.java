package org.jptxas.isel.select;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jptxas.isel.codegen.CodeLine;
import org.jptxas.isel.codegen.CodegenContext;
import org.jptxas.isel.codegen.JumpTables;
import org.jptxas.isel.codegen.PassThroughSassEmitter;
import org.jptxas.isel.codegen.SassEmitter;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.diag.Diagnostic;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.ir.Sym;

/**
 * The code generator's emitter backed by instruction selection: each allocated instruction goes through the target's
 * matchers and comes out as the target's nvdisasm text. An instruction no matcher turns into an encodable form is an
 * internal error naming the instruction and its PTX line.
 */
public final class SelectingSassEmitter implements SassEmitter {
    private final InstructionSelector selector;

    public SelectingSassEmitter(InstructionSelector selector) {
        this.selector = Objects.requireNonNull(selector, "selector");
    }

    @Override
    public List<CodeLine> emit(OriFunction function, CodegenContext context) throws CompilationException {
        FunctionBody body = function.body();
        String[] labels = PassThroughSassEmitter.blockLabels(body);
        List<CodeLine> out = new ArrayList<>(body.instructionCount());
        List<Diagnostic> errors = new ArrayList<>();
        for (BasicBlock b : body.blocks()) {
            String pending = labels[b.id()];
            for (Instr in : b.instrs()) {
                try {
                    CodeLine indirect = JumpTables.line(in, pending, id -> labels[id]);
                    if (indirect != null) {
                        out.add(indirect);
                        pending = null;
                        continue;
                    }
                    SassLine line = selector.emit(in, id -> labels[id]);
                    Sym sym = line.relocation() != null ? line.relocation() : symbolOf(in);
                    out.add(new CodeLine(pending, line.text(), line.assemblyText(), null, sym, in.line(), line.op()));
                } catch (SelectionException e) {
                    errors.add(Diagnostic.error(context.sourceName(), in.line(), "Internal error: " + e.getMessage()));
                }
                pending = null;
            }
        }
        if (!errors.isEmpty()) {
            throw new CompilationException(errors);
        }
        return out;
    }

    private static Sym symbolOf(Instr in) {
        for (Src s : in.srcs()) {
            if (s.value() instanceof Sym sym) {
                return sym;
            }
        }
        return null;
    }
}
