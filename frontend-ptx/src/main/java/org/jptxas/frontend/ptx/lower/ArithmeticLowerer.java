package org.jptxas.frontend.ptx.lower;

import com.google.auto.service.AutoService;
import java.util.Set;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.ori.diag.CompilationException;

/**
 * The arithmetic opcodes PTX shares between integer and float types: {@code add sub mul mad fma min max abs neg}
 * and the carry forms {@code addc subc madc}; integers go to {@link IntArith}, floats to {@link FloatArith}.
 */
@AutoService(InstructionLowerer.class)
public final class ArithmeticLowerer implements InstructionLowerer {
    @Override
    public Set<String> opcodes() {
        return Set.of("add", "sub", "mul", "mad", "fma", "min", "max", "abs", "neg", "addc", "subc", "madc");
    }

    @Override
    public void lower(Instruction insn, LoweringContext cx) throws CompilationException {
        PtxType t = Ptx.type(insn);
        String op = insn.opcode();
        if (Ptx.isFloat(t)) {
            switch (op) {
                case "add", "sub", "mul", "fma", "mad" -> FloatArith.arith(insn, cx, t, op);
                case "min", "max" -> FloatArith.minMax(insn, cx, t, op.equals("min"));
                case "abs", "neg" -> FloatArith.negAbs(insn, cx, t, op.equals("neg"));
                default -> throw cx.unsupported(null);
            }
            return;
        }
        if (PackedIntArith.applies(insn)) {
            PackedIntArith.lower(insn, cx);
            return;
        }
        switch (op) {
            case "add" -> IntArith.add(insn, cx, t, false);
            case "sub" -> IntArith.add(insn, cx, t, true);
            case "addc" -> IntArith.addc(insn, cx, t, false);
            case "subc" -> IntArith.addc(insn, cx, t, true);
            case "mul" -> IntArith.mul(insn, cx, t, false);
            case "mad" -> IntArith.mul(insn, cx, t, true);
            case "madc" -> IntArith.madc(insn, cx, t);
            case "min" -> IntArith.minMax(insn, cx, t, true);
            case "max" -> IntArith.minMax(insn, cx, t, false);
            case "abs" -> IntArith.abs(insn, cx, t);
            case "neg" -> IntArith.negate(insn, cx, t);
            default -> throw cx.unsupported(null);
        }
    }
}
