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
 * @param registerMap where its PTX registers live ({@code -g}), or null
 */
public record CompiledFunction(List<CodeLine> code, FunctionFacts facts, List<CubinBuilder.CodeRelocation> relocations,
                               long spillStores, long spillLoads, byte[] jumpTables,
                               org.jptxas.cubin.RegisterMaps.Function registerMap) {
    public CompiledFunction {
        code = List.copyOf(code);
        relocations = List.copyOf(relocations);
        jumpTables = jumpTables.clone();
    }

    /** A function without a register map. */
    public CompiledFunction(List<CodeLine> code, FunctionFacts facts, List<CubinBuilder.CodeRelocation> relocations,
                            long spillStores, long spillLoads, byte[] jumpTables) {
        this(code, facts, relocations, spillStores, spillLoads, jumpTables, null);
    }

    /** The function with register map {@code map}. */
    public CompiledFunction withRegisterMap(org.jptxas.cubin.RegisterMaps.Function map) {
        return new CompiledFunction(code, facts, relocations, spillStores, spillLoads, jumpTables, map);
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
