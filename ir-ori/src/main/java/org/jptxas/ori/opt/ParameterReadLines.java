package org.jptxas.ori.opt;

import java.util.List;
import org.jptxas.ori.analysis.SingleDefs;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.Src;

/**
 * Where the ALU reads no constant-bank operand (sm_90), a kernel parameter's read into a register
 * ({@code MOV}, {@code ULDC}, {@code LDC} of a fixed {@code c[0x0][..]} at or above the parameters' base) takes the
 * source line of its first reader in its block. ptxas treats {@code ld.param} as a constant operand of the
 * instruction that reads it, as it does where the ALU reads the bank itself (sm_80:
 * {@code IADD3 R0, P1, P2, R0, c[0x0][0x1b8], R3}, no instruction of the load's own), and loads that operand for its
 * reader with the reader's line: Kokkos's grid-stride begin ({@code ld.param} on Kokkos_ExecPolicy.hpp:90) is read by
 * {@code LDC.64 R4, c[0x0][0x268]} on the add's line 77, its end (line 91) by {@code ULDC.64 UR10, c[0x0][0x270]} on
 * the compare's line 78, so neither line has a row. Reads of the driver's words below the parameters
 * ({@code %ntid.y} as {@code c[0x0][0x4]}) are instructions of their own and keep their lines, as in ptxas. Only
 * lines change.
 */
public final class ParameterReadLines implements Pass {
    @Override
    public String name() {
        return "parameter-read-lines";
    }

    @Override
    public boolean run(FunctionBody body, OptContext cx) {
        if (cx.aluReadsConstantBank()) {
            return false;
        }
        int paramBase = cx.target().paramBase();
        SingleDefs sd = null;
        boolean changed = false;
        for (BasicBlock block : body.blocks()) {
            List<Instr> ins = block.instrs();
            for (int i = 0; i < ins.size(); i++) {
                Instr read = ins.get(i);
                if (parameterRead(read, paramBase) == null) {
                    continue;
                }
                Reg dst = read.dsts().get(0);
                if (sd == null) {
                    sd = cx.singleDefs(body);
                }
                if (!holdsOnlyParameters(dst.whole(), sd, paramBase)) {
                    continue;
                }
                Instr reader = firstReader(ins, i, dst);
                if (reader != null && reader.line() > 0 && reader.line() != read.line()) {
                    read.setLine(reader.line());
                    changed = true;
                }
            }
        }
        return changed;
    }

    /** The bank-0 word an unguarded MOV/ULDC/LDC of a fixed address at or above the parameters' base reads, or null. */
    private static CBank parameterRead(Instr in, int paramBase) {
        if (!in.guard().isAlways() || in.dsts().size() != 1 || in.srcs().isEmpty()) {
            return null;
        }
        Src s = OpInfo.is(in, "MOV") ? OpInfo.movSource(in)
                : OpInfo.is(in, "ULDC") || OpInfo.is(in, "LDC") ? in.srcs().get(0) : null;
        if (s == null || s.hasModifiers() || !(s.value() instanceof CBank c)) {
            return null;
        }
        return c.index() == null && c.bank() == 0 && c.offset() >= paramBase && in.dsts().get(0).virtual() ? c : null;
    }

    /** Every write of the register (or its parts) reads parameters: the value is the parameter's, unchanged. */
    private static boolean holdsOnlyParameters(Reg whole, SingleDefs sd, int paramBase) {
        List<Instr> defs = sd.defs(whole);
        if (defs.isEmpty() || !sd.stable(whole)) {
            return false;
        }
        for (Instr d : defs) {
            if (parameterRead(d, paramBase) == null) {
                return false;
            }
        }
        return true;
    }

    /**
     * The first instruction after {@code ins[i]} in its block that reads any part of {@code r}, or null. Not one in
     * another block: ptxas places the load of an operand read only further on (a Triton kernel's {@code ld.param}
     * read by a compare in a loop) apart from its readers, without their line.
     */
    private static Instr firstReader(List<Instr> ins, int i, Reg r) {
        for (int j = i + 1; j < ins.size(); j++) {
            if (Rewrites.reads(ins.get(j), r)) {
                return ins.get(j);
            }
        }
        return null;
    }
}
