package org.jptxas.frontend.ptx.lower;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.BlockLabel;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;

/**
 * Appends instructions with their sources legal for the opcode: constants moved to registers where an encoding cannot
 * take them, at most one constant-bank slot, f64 slots.
 */
final class SourceLegalizer {
    private final FunctionLowerer lowerer;

    SourceLegalizer(FunctionLowerer lowerer) {
        this.lowerer = lowerer;
    }

    /** Opcodes whose first source must be a register (SASS has no immediate or constant in that slot). */
    private static final Set<String> REGISTER_FIRST = Set.of("IADD3", "IMAD", "IMAD_WIDE", "ISETP", "LOP3", "SHF", "FADD",
            "FMUL", "FFMA", "FMNMX", "FSETP", "SEL", "FSEL", "IMNMX", "DADD", "DMUL", "DFMA", "DSETP", "PRMT", "LEA",
            "HADD2", "HMUL2", "HFMA2", "HMNMX2", "IABS", "SGXT", "FLO", "POPC", "BREV", "BMSK");

    /** Opcodes whose integer sources read RZ for a zero immediate. */
    private static final Set<String> ZERO_AS_RZ = Set.of("IADD3", "IMAD", "IMAD_WIDE", "ISETP", "SEL", "IMNMX", "MOV",
            "SHF", "FSEL");

    /** Opcodes with one immediate/constant slot (the second source) among their second and third sources. */
    private static final Set<String> ONE_CONSTANT_SLOT = Set.of("IADD3", "IMAD", "IMAD_WIDE", "FFMA", "DFMA", "LOP3",
            "HFMA2", "PRMT", "SHF");

    /** Opcodes whose first three sources are f64, register pairs where they are not immediates. */
    private static final Set<String> F64_SOURCES = Set.of("DADD", "DMUL", "DFMA", "DSETP");

    private static boolean isConstant(Src s) {
        return !(s.value() instanceof Reg);
    }

    /**
     * Keeps every emitted instruction encodable: a constant in a register-only slot goes to a register first
     * (commutative adds swap it into the constant slot instead).
     */
    private List<Src> legalize(String opcode, List<Src> srcs) {
        if (srcs.isEmpty()) {
            return srcs;
        }
        List<Src> out = new ArrayList<>(srcs);
        // a zero operand is RZ, as ptxas writes it (the register forms exist where immediate ones may not);
        // LUTs, shift counts of LEA and other control immediates past the third source stay immediates
        for (int i = 0; i < Math.min(3, out.size()); i++) {
            Src x = out.get(i);
            if (x.value() instanceof Imm m && m.bits() == 0 && !x.hasModifiers() && ZERO_AS_RZ.contains(opcode)) {
                out.set(i, Src.of(Reg.RZ));
            }
        }
        if (!REGISTER_FIRST.contains(opcode)) {
            return out;
        }
        if (isConstant(out.get(0))) {
            if (opcode.equals("IADD3") && out.size() >= 3 && !isConstant(out.get(1))) {
                Src x = out.get(0);
                out.set(0, out.get(1));
                out.set(1, x);
            } else {
                out.set(0, materialize(out.get(0), F64_SOURCES.contains(opcode)));
            }
        }
        if (ONE_CONSTANT_SLOT.contains(opcode) && out.size() >= 3 && isConstant(out.get(2))
                && !(opcode.equals("SHF") || opcode.equals("PRMT") || opcode.equals("LOP3"))) {
            if (opcode.equals("IADD3") && !isConstant(out.get(1))) {
                Src x = out.get(1);
                out.set(1, out.get(2));
                out.set(2, x);
            } else if (isConstant(out.get(1))) {
                out.set(2, materialize(out.get(2), F64_SOURCES.contains(opcode)));
            }
        }
        if (opcode.equals("SHF") && out.size() >= 3 && isConstant(out.get(2))) {
            out.set(2, materialize(out.get(2), F64_SOURCES.contains(opcode)));
        }
        if ((opcode.equals("LOP3") || opcode.equals("PRMT")) && out.size() >= 3 && isConstant(out.get(1))
                && isConstant(out.get(2))) {
            out.set(2, materialize(out.get(2), F64_SOURCES.contains(opcode)));
        }
        return out;
    }

    /**
     * A constant into a register: a pair when its high word is not zero or when the slot is a 64-bit one
     * ({@code f64Slot}: the f64 +0.0 has a zero high word, and as a single register a DADD read it with whatever
     * the next register held as its high half).
     */
    private Src materialize(Src s, boolean f64Slot) {
        if (f64Slot && s.value() instanceof CBank c && c.index() == null) {
            Reg r = lowerer.body.newVirtual(RegFile.R, 2);
            appendRaw("MOV", List.of(), List.of(r.component(0)), List.of(Src.of(c)), Guard.ALWAYS);
            appendRaw("MOV", List.of(), List.of(r.component(1)), List.of(Src.of(CBank.of(c.bank(), c.offset() + 4))),
                    Guard.ALWAYS);
            return new Src(r, s.neg(), s.abs(), s.not());
        }
        boolean wide = s.value() instanceof Imm m && ((m.bits() >>> 32) != 0 || f64Slot);
        Reg r = lowerer.body.newVirtual(RegFile.R, wide ? 2 : 1);
        if (wide) {
            Imm m = (Imm) s.value();
            appendRaw("MOV", List.of(), List.of(r.component(0)), List.of(Src.of(new Imm(m.bits() & 0xffffffffL))), Guard.ALWAYS);
            appendRaw("MOV", List.of(), List.of(r.component(1)), List.of(Src.of(new Imm(m.bits() >>> 32))), Guard.ALWAYS);
        } else {
            appendRaw("MOV", List.of(), List.of(r), List.of(Src.of(s.value())), Guard.ALWAYS);
        }
        return new Src(r, s.neg(), s.abs(), s.not());
    }

    Instr append(String opcode, List<String> mods, List<Reg> dsts, List<Src> srcs, Guard g) {
        if (opcode.equals("IMAD") && mods.contains("WIDE")) {
            // one spelling in Ori: IMAD.WIDE is the opcode IMAD_WIDE (ori-opcodes.json), not IMAD with a WIDE modifier
            opcode = "IMAD_WIDE";
            mods = mods.stream().filter(m -> !m.equals("WIDE")).toList();
        }
        return appendRaw(opcode, mods, dsts, legalize(opcode, srcs), g);
    }

    private Instr appendRaw(String opcode, List<String> mods, List<Reg> dsts, List<Src> srcs, Guard g) {
        Instr in = new Instr(lowerer.ops.require(opcode), mods, dsts, srcs, g, lowerer.insn == null ? 0 : lowerer.insn.pos().line());
        if (lowerer.current == null) {
            BasicBlock b = lowerer.body.addBlock(null);
            lowerer.blocks.placeAndStart(b);
        }
        lowerer.current.instrs().add(in);
        lowerer.reciprocals.written(dsts);
        for (Src s : srcs) {
            if (s.value() instanceof BlockLabel l) {
                lowerer.referenced.add(lowerer.blockById(l.block()));
            }
        }
        if (in.isTerminator()) {
            lowerer.current = null;
        }
        return in;
    }
}
