package org.jptxas.frontend.ptx.lower;

import com.google.auto.service.AutoService;
import java.util.List;
import java.util.Set;
import org.jptxas.frontend.ptx.ast.Expr;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.Src;

/**
 * {@code stacksave}, {@code alloca} and {@code stackrestore} move the stack pointer R1 as ptxas does:
 * {@code stacksave d} is {@code MOV d, R1}; {@code alloca d, size, align} is {@code IADD3 R1, R1, -size, RZ},
 * {@code LOP3.LUT R1, R1, ~(align - 1), RZ, 0xc0, !PT} (align 8 when absent), {@code MOV d, R1}; {@code stackrestore a}
 * is {@code MOV R1, a}. A 64-bit pointer is the 32-bit local address, zero-extended. Only kernels move R1 so (a
 * device function would have to restore it on return), and the frame below it must not be addressed from R1: the
 * code generator rejects a function that moves R1 and also has local variables or spills ({@code DynamicStack}).
 */
@AutoService(InstructionLowerer.class)
public final class StackLowerer implements InstructionLowerer {
    /** The alignment of {@code alloca} without {@code immAlign}, as ptxas applies it. */
    private static final long DEFAULT_ALIGN = 8;

    @Override
    public Set<String> opcodes() {
        return Set.of("stacksave", "alloca", "stackrestore");
    }

    @Override
    public void lower(Instruction insn, LoweringContext cx) throws CompilationException {
        if (!cx.isKernel()) {
            throw cx.unsupported("the stack pointer moved in a device function");
        }
        PtxType t = Ptx.type(insn);
        Reg sp = FunctionLowerer.SP;
        switch (insn.opcode()) {
            case "stacksave" -> result(cx, cx.dst(Ptx.op(insn, 0), t), sp);
            case "stackrestore" -> cx.emit("MOV", List.of(), List.of(sp), List.of(Ptx.lo(cx.src(Ptx.op(insn, 0), t))));
            default -> {
                long align = DEFAULT_ALIGN;
                if (insn.operands().size() > 2) {
                    if (!(Ptx.op(insn, 2) instanceof Expr.IntLit lit) || lit.value() <= 0
                            || Long.bitCount(lit.value()) != 1) {
                        throw cx.unsupported("an alignment that is no immediate power of two");
                    }
                    align = lit.value();
                }
                Src size = Ptx.lo(cx.src(Ptx.op(insn, 1), t));
                IntArith.iadd3(cx, sp, Src.of(sp), IntArith.neg(size), Ptx.rz());
                cx.emit("LOP3", List.of("LUT"), List.of(Reg.PT, sp),
                        List.of(Src.of(sp), Ptx.imm(-align), Ptx.rz(), Ptx.imm(0xc0), Ptx.notPt()));
                result(cx, cx.dst(Ptx.op(insn, 0), t), sp);
            }
        }
    }

    private static void result(LoweringContext cx, Reg d, Reg sp) {
        cx.emit("MOV", List.of(), List.of(d.width() == 2 ? d.component(0) : d), List.of(Src.of(sp)));
        if (d.width() == 2) {
            cx.emit("MOV", List.of(), List.of(d.component(1)), List.of(Ptx.rz()));
        }
    }
}
