package org.jptxas.frontend.ptx.lower;

import com.google.auto.service.AutoService;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.frontend.ptx.ast.StateSpace;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;

/**
 * {@code st.async} and {@code red.async} into another block's shared memory with mbarrier completion (sm_90,
 * {@code .shared::cluster.mbarrier::complete_tx::bytes}), as ptxas 13 writes them: {@code STAS[.64|.128] [Ra.64], Rb}
 * and {@code REDAS.op[.S32|.64] [Ra.64], Rb}, where Ra is the data's shared::cluster address and Ra+1 the barrier's
 * (any offset added into the registers: ptxas leaves the word's offset field zero). The store's bytes complete that
 * many transaction bytes on the barrier.
 */
@AutoService(InstructionLowerer.class)
public final class AsyncStoreLowerer implements InstructionLowerer {
    private static final Set<String> ACCEPTED = Set.of("shared::cluster", "mbarrier::complete_tx::bytes", "relaxed",
            "cluster", "v2", "v4", "b32", "b64", "u32", "s32", "u64", "s64", "f32", "f64", "add", "min", "max", "inc",
            "dec", "and", "or", "xor");

    /** red.async operations and the REDAS operation each is. */
    private static final Map<String, String> OPERATIONS = Map.of("add", "ADD", "min", "MIN", "max", "MAX", "inc",
            "INC", "dec", "DEC", "and", "AND", "or", "OR", "xor", "XOR");

    @Override
    public Set<String> opcodes() {
        return Set.of("st.async", "red.async");
    }

    @Override
    public void lower(Instruction insn, LoweringContext cx) throws CompilationException {
        var split = cx.resolved().opcodeOf(insn).orElseThrow(() -> cx.unsupported("asynchronous store form"));
        for (String m : split.modifiers()) {
            if (!ACCEPTED.contains(m)) {
                throw cx.unsupported("qualifier ." + m);
            }
        }
        if (!insn.hasModifier("shared::cluster") || !insn.hasModifier("mbarrier::complete_tx::bytes")) {
            throw cx.unsupported("asynchronous store without shared::cluster mbarrier completion");
        }
        List<Operand> ops = insn.operands();
        PtxType t = Ptx.type(insn);
        if (split.opcode().equals("st.async")) {
            int vec = insn.hasModifier("v4") ? 4 : insn.hasModifier("v2") ? 2 : 1;
            int bytes = t.sizeBytes() * vec;
            if (t.sizeBytes() < 4 || bytes > 16) {
                throw cx.unsupported("st.async of " + bytes + " bytes");
            }
            Src value = MemoryLowerer.storeValue(cx, ops.get(1), t, vec, bytes);
            Reg pair = addressPair(cx, ops.get(0), ops.get(2));
            List<String> mods = bytes == 16 ? List.of("128") : bytes == 8 ? List.of("64") : List.of();
            cx.emit("STAS", mods, List.of(), List.of(Src.of(Addr.of(pair, 0)), value));
            return;
        }
        String op = split.modifiers().stream().filter(OPERATIONS::containsKey).findFirst()
                .orElseThrow(() -> cx.unsupported("red.async operation"));
        List<String> mods = new ArrayList<>(List.of(OPERATIONS.get(op)));
        if (t == PtxType.S32) {
            mods.add("S32");
        } else if (t.sizeBytes() == 8) {
            mods.add("64");
        }
        Src value = MemoryLowerer.storeValue(cx, ops.get(1), t, 1, t.sizeBytes());
        Reg pair = addressPair(cx, ops.get(0), ops.get(2));
        cx.emit("REDAS", mods, List.of(), List.of(Src.of(Addr.of(pair, 0)), value));
    }

    /** The register pair of the data's and the barrier's shared::cluster addresses. */
    private static Reg addressPair(LoweringContext cx, Operand data, Operand barrier) {
        Reg pair = cx.newReg(RegFile.R, 2);
        place(cx, pair.component(0), cx.address((Operand.Address) data, StateSpace.SHARED));
        place(cx, pair.component(1), cx.address((Operand.Address) barrier, StateSpace.SHARED));
        return pair;
    }

    /** {@code d = base + offset} of a 32-bit shared::cluster address (a 64-bit register's low word). */
    private static void place(LoweringContext cx, Reg d, Addr a) {
        if (a.base().isZero()) {
            cx.emit("MOV", List.of(), List.of(d), List.of(Ptx.imm(a.offset() & 0xffffffffL)));
            return;
        }
        Reg base = a.base().width() == 2 ? a.base().component(0) : a.base();
        if (a.offset() == 0) {
            cx.emit("MOV", List.of(), List.of(d), List.of(Src.of(base)));
        } else {
            cx.emit("IADD3", List.of(), List.of(d, Reg.PT, Reg.PT), List.of(Src.of(base),
                    Ptx.imm(a.offset() & 0xffffffffL), Ptx.rz()));
        }
    }
}
