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
        // one label function and indexed loops for the whole body: in C1-compiled code (the compile server's) a
        // capturing lambda or a for-each iterator allocates at every instruction
        java.util.function.IntFunction<String> labelOf = id -> labels[id];
        List<BasicBlock> blocks = body.blocks();
        for (int bi = 0; bi < blocks.size(); bi++) {
            BasicBlock b = blocks.get(bi);
            String pending = labels[b.id()];
            List<Instr> instrs = b.instrs();
            for (int ii = 0; ii < instrs.size(); ii++) {
                Instr in = instrs.get(ii);
                try {
                    CodeLine indirect = JumpTables.line(in, pending, labelOf, context.description().isa());
                    if (indirect != null) {
                        out.add(indirect);
                        pending = null;
                        continue;
                    }
                    SassLine line = selector.emit(in, labelOf);
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
        List<Src> srcs = in.srcs();
        for (int i = 0; i < srcs.size(); i++) {
            if (srcs.get(i).value() instanceof Sym sym) {
                return sym;
            }
        }
        return null;
    }
}
