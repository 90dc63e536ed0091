package org.jptxas.frontend.ptx.lower;

import com.google.auto.service.AutoService;
import java.util.List;
import java.util.Set;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.StateSpace;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Src;

/**
 * Instructions that only hint the memory system or the profiler, lowered as ptxas 13 writes them:
 * {@code applypriority[.global].L2::evict_normal [a], 128} is {@code CCTL.E.DML2 [a]},
 * {@code discard[.global].L2 [a], 128} is {@code CCTL.E.RML2 [a]} (a generic address is a global one there),
 * {@code pmevent n} is {@code PMTRIG (1 << n)} and {@code pmevent.mask m} is {@code PMTRIG m};
 * {@code griddepcontrol.wait} is {@code ACQBULK} and {@code griddepcontrol.launch_dependents} {@code PREEXIT}.
 */
@AutoService(InstructionLowerer.class)
public final class CacheHintLowerer implements InstructionLowerer {
    @Override
    public Set<String> opcodes() {
        return Set.of("applypriority", "discard", "pmevent", "griddepcontrol");
    }

    @Override
    public void lower(Instruction insn, LoweringContext cx) throws CompilationException {
        switch (insn.opcode()) {
            case "pmevent" -> {
                Long v = WarpgroupAccumulators.literal(insn.operands().get(0));
                if (v == null) {
                    throw cx.unsupported("a pmevent operand that is not an integer literal");
                }
                long mask = insn.hasModifier("mask") ? v : 1L << v;
                cx.emit("PMTRIG", List.of(), List.of(), List.of(Src.of(Imm.ofInt((int) mask))));
            }
            case "griddepcontrol" -> cx.emit(insn.hasModifier("wait") ? "ACQBULK" : "PREEXIT", List.of(), List.of(),
                    List.of());
            default -> {
                Operand.Address a = (Operand.Address) insn.operands().get(0);
                String op = insn.opcode().equals("discard") ? "RML2" : "DML2";
                cx.emit("CCTL", List.of("E", op), List.of(), List.of(Src.of(cx.address(a, StateSpace.GLOBAL))));
            }
        }
    }
}
