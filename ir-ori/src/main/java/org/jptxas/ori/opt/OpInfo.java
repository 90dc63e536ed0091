package org.jptxas.ori.opt;

import java.util.List;
import java.util.Set;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Operand;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.opcode.OpcodeSet;
import org.jptxas.ori.opcode.OriOpcode;
import org.jptxas.ori.opcode.OriOpcodes;

/** What the passes need to know about opcodes: which are pure, and small builders and matchers for instructions. */
final class OpInfo {
    private OpInfo() {}

    /**
     * Opcodes whose only effect is writing their destinations from their sources: no memory, no side state, no
     * control, no cross-lane communication. Removing or merging two of them with equal inputs is safe.
     */
    private static final OpcodeSet PURE = OpcodeSet.of(
            "IMAD", "IMAD_WIDE", "IADD3", "BMSK", "SGXT", "LOP3", "ISETP", "IABS", "LEA", "SHF", "PRMT", "IMNMX",
            "POPC", "FLO", "BREV", "VABSDIFF", "VABSDIFF4", "IDP", "IDE",
            "FFMA", "FADD", "FMUL", "FMNMX", "FSET", "FSEL", "FSETP", "FCHK", "MUFU",
            "DFMA", "DADD", "DMUL", "DSETP", "DMNMX",
            "HADD2", "HADD2_F32", "HFMA2", "HMUL2", "HSET2", "HSETP2", "HMNMX2",
            "F2F", "F2F_X", "F2I", "F2I_X", "I2F", "I2F_X", "I2I", "I2IP", "FRND", "FRND_X", "F2FP",
            "MOV", "SEL", "P2R", "R2P", "PLOP3", "CS2R_32", "CS2R_64", "LDC",
            "UIADD3", "UIMAD", "UIMAD_WIDE", "ULOP3", "USHF", "ULEA", "UPRMT", "USEL", "UMOV", "UISETP", "UPLOP3",
            "ULDC", "ULDC_64", "UFLO", "UPOPC", "UBREV", "USGXT", "UBMSK", "UP2UR", "UR2UP", "UIMNMX", "VIADD",
            "VIMNMX", "S2UR");

    /** S2R of a special register is side-effect free; only the clocks change from read to read. */
    private static final OpcodeSet SPECIAL_READS = OpcodeSet.of("S2R", "CS2R");

    /** Special registers whose value changes while a thread runs: never merged, never folded. */
    private static final Set<String> VOLATILE_SR = Set.of("SR_CLOCKLO", "SR_CLOCKHI", "SR_GLOBALTIMERLO",
            "SR_GLOBALTIMERHI", "SR_CLOCK", "SR_GLOBALTIMER", "SR_LANEMASK_ACTIVE", "SR_VIRTUALSMID",
            "SR_SM_SPA_VERSION");

    static boolean isPure(Instr in) {
        return PURE.contains(in.op()) || SPECIAL_READS.contains(in.op());
    }

    /** Pure and giving the same result each time it runs with the same inputs (S2R of a clock does not). */
    static boolean isRepeatable(Instr in) {
        if (!isPure(in)) {
            return false;
        }
        List<Src> srcs = in.srcs();
        for (int i = 0; i < srcs.size(); i++) {
            if (srcs.get(i).value() instanceof org.jptxas.ori.ir.SpecialReg sr && (VOLATILE_SR.contains(sr.name())
                    || sr.name().startsWith("SR_CLOCK") || sr.name().startsWith("SR_GLOBALTIMER"))) {
                return false;
            }
        }
        return true;
    }

    static OriOpcode op(String name) {
        return OriOpcodes.get().byName(name).orElseThrow(() -> new IllegalStateException("no Ori opcode " + name));
    }

    static boolean exists(String name) {
        return OriOpcodes.get().byName(name).isPresent();
    }

    static boolean is(Instr in, String name) {
        return in.op().name().equals(name);
    }

    /** The immediate value of a source without modifiers, or null. */
    static Long imm(Src s) {
        return s.value() instanceof Imm i && !s.hasModifiers() ? i.bits() : null;
    }

    static boolean isRZ(Src s) {
        return s.value() instanceof Reg r && r.isZero() && !r.file().isPredicate();
    }

    /** A 32-bit constant a source reads: an immediate (negated if {@code neg}), RZ as 0; null otherwise. */
    static Long const32(Src s) {
        Long v;
        if (s.value() instanceof Imm i) {
            v = i.bits() & 0xffffffffL;
        } else if (isRZ(s)) {
            v = 0L;
        } else {
            return null;
        }
        if (s.abs()) {
            return null;
        }
        long x = v;
        if (s.neg()) {
            x = -x;
        }
        if (s.not()) {
            x = ~x;
        }
        return x & 0xffffffffL;
    }

    /** A predicate source that is constant: PT, !PT; null otherwise. */
    static Boolean constPred(Src s) {
        if (s.value() instanceof Reg r && r.file().isPredicate() && r.isZero()) {
            return !s.not();
        }
        return null;
    }

    static Src pt(boolean value) {
        return new Src(Reg.PT, false, false, !value);
    }

    /** A single-component general (R) register destination, virtual. */
    static boolean isPlainVirtualR(Reg r) {
        return r.virtual() && r.comps() == 1 && r.file() == org.jptxas.ori.ir.RegFile.R;
    }

    /** True if every destination but the first is an unused constant register (PT/RZ). */
    static boolean extraDstsAreSinks(Instr in) {
        List<Reg> d = in.dsts();
        for (int i = 1; i < d.size(); i++) {
            if (!d.get(i).isZero()) {
                return false;
            }
        }
        return true;
    }

    /** The single R destination of an ALU instruction whose predicate destinations are sinks, or null. */
    static Reg soleRDst(Instr in) {
        Reg result = null;
        List<Reg> dsts = in.dsts();
        for (int i = 0; i < dsts.size(); i++) { // indexed: C1 allocates a for-each's iterator
            Reg d = dsts.get(i);
            if (d.file().isPredicate()) {
                if (!d.isZero()) {
                    return null;
                }
            } else if (result != null) {
                return null;
            } else {
                result = d;
            }
        }
        return result;
    }

    /** Rewrites {@code in} into {@code MOV dst, value} (same guard and line). */
    static void makeMov(Instr in, Reg dst, Operand value) {
        makeMov(in, dst, Src.of(value));
    }

    static void makeMov(Instr in, Reg dst, Src value) {
        in.setOp(op("MOV"));
        in.setMods(List.of());
        in.dsts().clear();
        in.dsts().add(dst);
        in.srcs().clear();
        in.srcs().add(value);
    }

    /** A plain copy {@code MOV d, s} (no lane mask other than the default), with its source; null otherwise. */
    static Src movSource(Instr in) {
        if (!is(in, "MOV") || in.dsts().size() != 1 || !in.mods().isEmpty()) {
            return null;
        }
        if (in.srcs().size() == 2) {
            Long mask = imm(in.srcs().get(1));
            if (mask == null || mask != 0xf) {
                return null;
            }
        } else if (in.srcs().size() != 1) {
            return null;
        }
        return in.srcs().get(0);
    }

    /**
     * The source slots of an opcode that take an immediate, constant-bank or uniform-register operand (SASS has one
     * such field per instruction): the second source of the integer ALU forms, also the addend of IMAD.
     */
    static int[] nonRegisterSlots(Instr in) {
        return switch (in.op().name()) {
            case "MOV" -> new int[] {0};
            case "IMAD", "IMAD_WIDE" -> new int[] {1, 2};
            case "IADD3", "LOP3", "ISETP", "SEL", "SHF", "LEA", "IMNMX", "PRMT" -> new int[] {1};
            case "FFMA" -> new int[] {1, 2};
            case "FADD", "FMUL", "FMNMX", "FSETP", "FSEL" -> new int[] {1};
            default -> new int[0];
        };
    }

    /**
     * The 32 bits source {@code s} of {@code in} reads from a value {@code raw} (a register's or an immediate's): a
     * predicate's '!' inverts it; the f32 instructions ({@link #signBitModifiers}) negate on the sign bit; the others
     * negate and invert as integers. Null for an absolute value, and for '!' on an f32 source (not substituted).
     * {@code in} is null for a bare value (a guard, an exit predicate): integer rules.
     */
    static Long read(Instr in, Src s, long raw) {
        if (s.value() instanceof org.jptxas.ori.ir.Reg r && r.file().isPredicate()) {
            return s.not() ? raw ^ 1 : raw;
        }
        if (s.abs()) {
            return null;
        }
        if (in != null && signBitModifiers(in)) {
            return s.not() ? null : s.neg() ? (raw ^ 0x80000000L) & 0xffffffffL : raw & 0xffffffffL;
        }
        long x = s.neg() ? -raw : raw;
        return (s.not() ? ~x : x) & 0xffffffffL;
    }

    /** The f32 instructions of {@link #nonRegisterSlots}: their '-' and '|x|' act on a source's sign bit. */
    static boolean signBitModifiers(Instr in) {
        return switch (in.op().name()) {
            case "FFMA", "FADD", "FMUL", "FMNMX", "FSETP", "FSEL" -> true;
            default -> false;
        };
    }

    static boolean isNonRegister(Src s) {
        if (s.value() instanceof Imm || s.value() instanceof org.jptxas.ori.ir.CBank) {
            return true;
        }
        return s.value() instanceof Reg r && r.file() == org.jptxas.ori.ir.RegFile.UR && !r.isZero();
    }

    /** How many sources already use the single immediate/constant/uniform field. */
    static int nonRegisterCount(Instr in) {
        int n = 0;
        for (Src s : in.srcs()) {
            if (isNonRegister(s)) {
                n++;
            }
        }
        return n;
    }

    /** Whether a non-register operand reads register {@code r} (an address base, a constant-bank index). */
    static boolean usesRegister(Src s, Reg r) {
        Instr probe = Instr.of(op("MOV"), List.of(), List.of(s));
        for (Reg u : probe.usedRegs()) {
            if (u.sameRegister(r)) {
                return true;
            }
        }
        return false;
    }
}
