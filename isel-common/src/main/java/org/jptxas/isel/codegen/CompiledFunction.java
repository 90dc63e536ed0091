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
 */
public record CompiledFunction(List<CodeLine> code, FunctionFacts facts, List<CubinBuilder.CodeRelocation> relocations,
                               long spillStores, long spillLoads) {
    public CompiledFunction {
        code = List.copyOf(code);
        relocations = List.copyOf(relocations);
    }
}
