package org.jptxas.isel.codegen;

import java.util.List;
import org.jptxas.cubin.CubinBuilder;
import org.jptxas.cubin.FunctionFacts;

/**
 * One function after code generation.
 *
 * @param code        the final instructions in address order (16 bytes each, from 0), with control bits
 * @param facts       what the cubin records about it
 * @param relocations its code relocations
 * @param spillStores bytes of spill stores (for the {@code -v} report)
 * @param spillLoads  bytes of spill loads
 * @param jumpTables  its constant bank 2 ({@code .nv.constant2.<f>}): the jump tables of its BRXs; empty for none
 */
public record CompiledFunction(List<CodeLine> code, FunctionFacts facts, List<CubinBuilder.CodeRelocation> relocations,
                               long spillStores, long spillLoads, byte[] jumpTables) {
    public CompiledFunction {
        code = List.copyOf(code);
        relocations = List.copyOf(relocations);
        jumpTables = jumpTables.clone();
    }

    /** A function without jump tables. */
    public CompiledFunction(List<CodeLine> code, FunctionFacts facts, List<CubinBuilder.CodeRelocation> relocations,
                            long spillStores, long spillLoads) {
        this(code, facts, relocations, spillStores, spillLoads, new byte[0]);
    }

    @Override
    public byte[] jumpTables() {
        return jumpTables.clone();
    }
}
