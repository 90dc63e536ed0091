package org.jptxas.scheduler.sass;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jptxas.scheduler.latency.LatencyModel;
import org.jptxas.scheduler.latency.OpClass;
import org.jptxas.scheduler.model.MemKind;
import org.jptxas.scheduler.model.MemSpace;
import org.jptxas.scheduler.model.RegFile;
import org.jptxas.scheduler.model.RegRange;
import org.jptxas.scheduler.model.SchedFlag;
import org.jptxas.scheduler.model.ScoreboardDrain;
import org.jptxas.scheduler.model.SimpleInstr;

/**
 * What one sm_70+ instruction means to the scheduler, as a {@link SimpleInstr}: which registers it reads and writes
 * (with widths), its guard, memory space, control flags and reuse slots. It reads a {@link SassShape}, made from a
 * typed instruction or from listing text. Operand roles follow the SASS convention (destinations first); the few
 * instructions that break it are listed here by name.
 */
public final class SassReader {
    private static final Set<String> NO_DEST = Set.of("STG", "STS", "ST", "STL", "RED", "BRA", "EXIT", "BAR", "BSYNC",
            "CALL", "RET", "NOP", "MEMBAR", "WARPSYNC", "DEPBAR", "ERRBAR", "CCTL", "YIELD", "KILL", "JMP", "JMX", "BRX",
            "STSM", "SUST", "SURED", "REDG", "LDGSTS", "LDGDEPBAR", "ARRIVES", "NANOSLEEP", "FENCE", "CCTLL", "BREAK", "BPT", "RTT");
    private static final Set<String> PAIR_DEST = Set.of("SHFL", "ATOM", "ATOMG", "ATOMS", "MATCH");

    private final LatencyModel model;
    private final boolean urInAddressBits;

    /**
     * @param urInAddressBits global loads and atomics without {@code desc[]} read the UR pair in bits [37:32]
     *     ({@link org.jptxas.ori.target.TargetFeature#UR_IN_GLOBAL_ADDRESS_BITS})
     */
    public SassReader(LatencyModel model, boolean urInAddressBits) {
        this.model = model;
        this.urInAddressBits = urInAddressBits;
    }

    /** Parsed instruction plus whether its mnemonic had a latency class (else it is modelled as {@code alu}). */
    public record Parsed(SimpleInstr instr, String mnemonic, Set<String> modifiers, boolean known, boolean timer) {}

    /**
     * A line of a listing: its decoded instruction, or its text where it has none (and its low word, for the
     * descriptor register neither shows).
     */
    public Parsed parse(SassLine line) {
        SassShape shape = line.decoded() != null ? SassShape.of(line.decoded().form(), line.decoded().values())
                : SassShape.of(line.text());
        return parse(shape, line.lo(), line.text());
    }

    /**
     * An instruction of shape {@code shape} whose low word is {@code lo} (only bits [37:32] are read, and only with
     * {@code urInAddressBits}); {@code name} names it in diagnostics.
     */
    public Parsed parse(SassShape shape, long lo, String name) {
        List<String> parts = shape.opcode();
        String mnemonic = parts.get(0);
        Set<String> mods = new HashSet<>(parts.subList(1, parts.size()));
        SassShape.Reg guard = shape.guard();
        if (guard != null && shape.guardNegated() && guard.number() == guard.file().zero()) {
            // Never executes: ptxas uses such instructions as padding; they occupy an issue slot and nothing else.
            return new Parsed(SimpleInstr.builder("nop").name(name).build(), mnemonic, mods, true, shape.timer());
        }
        Optional<OpClass> oc = model.classify(mnemonic, mods);
        SimpleInstr.Builder b = SimpleInstr.builder(oc.map(OpClass::name).orElse("alu")).name(name);
        if (guard != null) {
            b.guard(guard.file(), guard.number());
            if (shape.guardNegated()) {
                b.flag(SchedFlag.NEGATED_GUARD);
            }
        }
        flags(mnemonic, b);
        memory(mnemonic, mods, b);
        List<SassShape.Operand> ops = shape.operands();
        int width = widthOf(mnemonic, mods);
        int dests = destCount(mnemonic, ops);
        List<String> types = typeOrder(parts);
        List<RegRange> slots = new ArrayList<>();
        TextureOperands.Widths texture = shape.texture() != null ? TextureOperands.of(mnemonic, mods, shape.texture())
                : null;
        if (texture != null) {
            dests = 2;
        }
        for (int k = 0; k < ops.size(); k++) {
            SassShape.Operand op = ops.get(k);
            boolean dest = k < dests;
            List<RegRange> regs = texture != null ? textureRegisters(op, k, texture)
                    : registers(op, mnemonic, mods, types, dest, width, k - dests);
            for (RegRange r : regs) {
                if (dest) {
                    b.def(r);
                } else {
                    b.use(r);
                }
            }
            if (mnemonic.equals("BREAK") || mnemonic.equals("BMOV") && mods.contains("CLEAR")) {
                // BREAK and BMOV.32.CLEAR both read and clear their barrier register.
                regs.stream().filter(r -> r.file() == RegFile.B).forEach(b::def);
            }
            if (!dest && slots.size() < 3) {
                slots.add(!op.memory() && regs.size() == 1 && regs.get(0).file() == RegFile.R
                        && op.leadingGpr() ? RegRange.of(RegFile.R, regs.get(0).first()) : null);
            }
        }
        if (urInAddressBits && (mnemonic.equals("LDG") || mnemonic.equals("LD"))
                && mods.contains("E") && !shape.hasDescriptor()) {
            // ptxas's 64-bit global descriptor lives in a uniform pair named in bits [37:32] (not printed). Not on
            // ATOMG: there bits [39:32] hold the data register (nvdisasm prints R2 for R3 with bit 32 flipped).
            int ur = (int) (lo >>> 32 & 0x3f);
            if (ur < 63) {
                b.use(RegFile.UR, ur, 2);
            }
        }
        if (mnemonic.equals("DEPBAR")) {
            b.scoreboardDrain(depbarDrain(shape.numbers()));
        }
        b.reuseSlots(slots.toArray(new RegRange[0]));
        return new Parsed(b.build(), mnemonic, mods, oc.isPresent(), shape.timer());
    }

    /** What a {@code DEPBAR.LE SBk, n{, {i,j}}} waits for: the listed scoreboards, and SBk down to {@code n}. */
    static ScoreboardDrain depbarDrain(List<Long> numbers) {
        if (numbers.size() < 2) {
            return ScoreboardDrain.NONE;
        }
        int sb = (int) (long) numbers.get(0);
        int pending = (int) (long) numbers.get(1);
        int mask = pending == 0 ? 1 << sb : 0;
        for (long k : numbers.subList(2, numbers.size())) {
            mask |= 1 << k;
        }
        return new ScoreboardDrain(mask, pending == 0 ? -1 : sb, pending);
    }

    private static int destCount(String mnemonic, List<SassShape.Operand> ops) {
        if (NO_DEST.contains(mnemonic) || ops.isEmpty()) {
            return 0;
        }
        if (PAIR_DEST.contains(mnemonic) && ops.size() > 1 && ops.get(0).predicate()) {
            return 2;
        }
        if (mnemonic.equals("BSSY")) {
            return 1;
        }
        if (mnemonic.equals("VOTE") || mnemonic.equals("VOTEU")) {
            // VOTE.ANY R5, P1, P0 (a GPR and a predicate result) or VOTE.ALL P1, P0; VOTEU.ANY UR4, UPT, PT or
            // VOTEU.ALL UP0, P1 (the last predicate is the vote's source, not a result)
            return ops.size() - 1;
        }
        if (ops.size() > 1 && ops.get(1).predicate() && !ops.get(1).negated()) {
            return 2;
        }
        return 1;
    }

    private void flags(String m, SimpleInstr.Builder b) {
        switch (m) {
            // the cluster barrier orders memory as the block barrier does (its release fence ends in CGAERRBAR)
            case "BAR", "ARRIVES", "UCGABAR_ARV", "UCGABAR_WAIT" -> b.flag(SchedFlag.BARRIER);
            // a warp barrier is convergence control too: nothing crosses it (see DagBuilder)
            case "WARPSYNC" -> b.flag(SchedFlag.BARRIER).flag(SchedFlag.CONTROL);
            case "MEMBAR", "ERRBAR", "CGAERRBAR", "DEPBAR", "FENCE", "CCTL" -> b.flag(SchedFlag.FENCE);
            case "LDGDEPBAR" -> b.flag(SchedFlag.FENCE).flag(SchedFlag.COPY_GROUP);
            case "CALL", "RET" -> b.flag(SchedFlag.CALL);
            case "BRA", "JMP", "BRX", "JMX" -> b.flag(SchedFlag.BRANCH);
            case "EXIT", "KILL" -> b.flag(SchedFlag.EXIT);
            case "BSSY", "BSYNC", "BREAK", "YIELD" -> b.flag(SchedFlag.CONTROL);
            case "NOP" -> b.flag(SchedFlag.NOP);
            default -> { }
        }
    }

    private static void memory(String m, Set<String> mods, SimpleInstr.Builder b) {
        switch (m) {
            case "LDG" -> b.mem(MemKind.LOAD, MemSpace.GLOBAL);
            case "STG", "REDG" -> b.mem(m.equals("STG") ? MemKind.STORE : MemKind.ATOMIC, MemSpace.GLOBAL);
            case "RED", "ATOMG" -> b.mem(MemKind.ATOMIC, MemSpace.GLOBAL);
            case "LDS", "LDSM" -> b.mem(MemKind.LOAD, MemSpace.SHARED);
            case "STS", "STSM" -> b.mem(MemKind.STORE, MemSpace.SHARED);
            case "ATOMS" -> b.mem(MemKind.ATOMIC, MemSpace.SHARED);
            case "LDL" -> b.mem(MemKind.LOAD, MemSpace.LOCAL);
            case "STL" -> b.mem(MemKind.STORE, MemSpace.LOCAL);
            case "LD" -> b.mem(MemKind.LOAD, MemSpace.GENERIC);
            case "ST" -> b.mem(MemKind.STORE, MemSpace.GENERIC);
            case "ATOM" -> b.mem(MemKind.ATOMIC, MemSpace.GENERIC);
            case "LDGSTS" -> b.mem(MemKind.ATOMIC, MemSpace.SHARED);
            case "LDC" -> b.mem(MemKind.LOAD, MemSpace.CONST);
            case "TEX", "TLD", "TLD4", "TXD", "TMML", "TXQ" -> b.mem(MemKind.LOAD, MemSpace.TEXTURE);
            case "SULD" -> b.mem(MemKind.LOAD, MemSpace.SURFACE);
            case "SUST" -> b.mem(MemKind.STORE, MemSpace.SURFACE);
            case "SUATOM", "SURED" -> b.mem(MemKind.ATOMIC, MemSpace.SURFACE);
            default -> { }
        }
    }

    /** The registers of operand {@code k} of a texture instruction, at their {@link TextureOperands} widths. */
    private static List<RegRange> textureRegisters(SassShape.Operand op, int k, TextureOperands.Widths w) {
        List<RegRange> out = new ArrayList<>(op.regs().size());
        for (SassShape.Reg x : op.regs()) {
            if (x.number() == x.file().zero()) {
                continue;
            }
            int width = x.file() == RegFile.UR ? w.uniform() : x.file() == RegFile.R && k < 4 ? w.gpr()[k] : 1;
            out.add(new RegRange(x.file(), x.number(), Math.min(width, x.file().size() - x.number())));
        }
        return out;
    }

    /** Width in registers of the data operands (destination of loads, source of stores), from the size modifier. */
    private static int widthOf(String m, Set<String> mods) {
        if (m.equals("LDSM")) { // LDSM.16.M88[.2|.4]: one register per 8x8 matrix
            return mods.contains("4") ? 4 : mods.contains("2") ? 2 : 1;
        }
        if (mods.contains("128") || mods.contains("F32x4") || mods.contains("F16x8") || mods.contains("BF16x8")) {
            return 4; // a vector atomic's tuple: four 32-bit words
        }
        if (mods.contains("F32x2") || mods.contains("F16x4") || mods.contains("BF16x4")) {
            return 2;
        }
        if (mods.contains("64") || m.startsWith("SU") && (mods.contains("U64") || mods.contains("S64"))) {
            return 2; // SURED.ADD.U64, MIN.S64: the operand is a pair
        }
        if (m.startsWith("D") && Set.of("DADD", "DFMA", "DMUL", "DSETP", "DMNMX").contains(m)) {
            return 2;
        }
        return 1;
    }

    private static List<RegRange> registers(SassShape.Operand op, String m, Set<String> mods, List<String> types,
                                            boolean dest, int width, int srcIndex) {
        List<RegRange> out = new ArrayList<>(op.regs().size());
        for (SassShape.Reg x : op.regs()) {
            RegFile f = x.file();
            int reg = x.number();
            int w = x.width();
            if (f == RegFile.R && !op.memory() && w == 1) {
                w = dataWidth(m, mods, types, dest, width, srcIndex);
            }
            if (f == RegFile.UR && !op.memory() && w == 1 && (m.equals("ULDC") || m.equals("LDC") || m.startsWith("UMOV")) && dest) {
                w = width;
            }
            if (f == RegFile.UR && !op.memory() && w == 1 && !dest && m.equals("SYNCS") && mods.contains("64")) {
                w = 2; // SYNCS.EXCH.64 (mbarrier.init): the initial value is a uniform pair
            }
            if (op.descriptor() && f == RegFile.UR && w == 1) {
                w = 2;
            }
            if (f == RegFile.R && op.memory() && w == 1 && m.startsWith("SU")) {
                // SULD/SUST/SURED/SUATOM [Ra]: Ra holds one coordinate per dimension (x, y of 2D; x, y, z of 3D),
                // then an array's layer
                w = mods.contains("3D") || mods.contains("2D_ARRAY") ? 3
                        : mods.contains("2D") || mods.contains("1D_ARRAY") ? 2 : 1;
            }
            if (reg + w > f.size()) {
                w = f.size() - reg;
            }
            if (w >= 1) {
                out.add(new RegRange(f, reg, w));
            }
        }
        return out;
    }

    /** Width of a plain GPR operand (not an address). */
    private static int dataWidth(String m, Set<String> mods, List<String> types, boolean dest, int width, int srcIndex) {
        switch (m) {
            case "IMAD":
                if (mods.contains("WIDE")) {
                    return dest || srcIndex == 2 ? 2 : 1;
                }
                if (mods.contains("HI")) {
                    // IMAD.HI{.X} Rd, {Pc,} a, b, C: the high word of a*b plus a 64-bit C, a register pair (the
                    // Newton steps of 64-bit division keep their estimate in its high half). Read as one register,
                    // a write of C's high half could move above the IMAD.HI that still reads it.
                    return !dest && srcIndex == 2 ? 2 : 1;
                }
                return 1;
            case "CS2R":
                return dest && !mods.contains("32") ? 2 : 1;
            case "DADD", "DFMA", "DMUL", "DMNMX":
                return 2;
            case "DSETP":
                return dest ? 1 : 2;
            case "F2F", "F2I", "I2F", "F2FP", "I2I":
                return conversionWidth(m, types, dest);
            case "HMMA", "IMMA", "DMMA", "BMMA", "QMMA":
                return mmaWidth(m, mods, dest, srcIndex);
            case "RET", "CALL":
                return 2; // a 64-bit return or target address
            default:
                break;
        }
        boolean load = m.startsWith("LD") || m.equals("ATOM") || m.equals("ATOMG") || m.equals("ATOMS") || m.equals("SHFL")
                || m.equals("TEX") || m.equals("TLD") || m.equals("SULD");
        // sm_90 spells the global reduction REDG: its data tuple (REDG.E.ADD.64, .F16x4, .F32x4) is as wide as RED's
        boolean store = m.startsWith("ST") || m.equals("RED") || m.equals("REDG") || m.equals("SUST") || m.equals("SURED");
        if (dest && load || !dest && (store || m.startsWith("ATOM"))) {
            return width;
        }
        return 1;
    }

    /**
     * Registers per operand of a warp-level matrix multiply, from its shape (m, n, k) and element sizes: A holds
     * m k, B k n and C/D m n elements over the warp's 32 lanes ({@code HMMA.1688.F32.TF32}: 4, 2, 4;
     * {@code IMMA.8816.S8.S8}: 1, 1, 2). Inputs are f16/bf16 (16 bits), tf32 (32), s8/u8 (8), s4/u4 (4), b1 (1); the
     * accumulator is 32-bit except HMMA's F16; a sparse multiply ({@code .SP}) stores half of A and reads one metadata
     * register after C. Volta's 884 steps use pairs; DMMA (m8n8k4 f64) reads a pair of A and
     * of B and two pairs of C, and writes two pairs.
     */
    private static int mmaWidth(String m, Set<String> mods, boolean dest, int srcIndex) {
        if (m.equals("DMMA")) {
            // m8n8k4 f64: one pair of A and of B, two pairs of C and D; sm_90's 16x8xK: k/2 pairs of A, k/4 of B, 4 of C/D
            int k = mods.contains("16x8x4") ? 4 : mods.contains("16x8x8") ? 8 : mods.contains("16x8x16") ? 16 : 0;
            if (k > 0) {
                return dest || srcIndex == 2 ? 8 : srcIndex == 0 ? k : k / 2;
            }
            return dest || srcIndex == 2 ? 4 : 2;
        }
        int[] mnk = null;
        for (String s : mods) {
            mnk = switch (s) {
                case "16816" -> new int[] {16, 8, 16};
                case "1688" -> new int[] {16, 8, 8};
                case "1684" -> new int[] {16, 8, 4};
                case "16832" -> new int[] {16, 8, 32};
                case "16864" -> new int[] {16, 8, 64};
                case "168128" -> new int[] {16, 8, 128};
                case "168256" -> new int[] {16, 8, 256};
                case "8816" -> new int[] {8, 8, 16};
                case "8832" -> new int[] {8, 8, 32};
                case "88128" -> new int[] {8, 8, 128};
                default -> mnk;
            };
        }
        if (mnk == null) {
            return 2; // Volta's HMMA.884 steps
        }
        int in = m.equals("BMMA") ? 1 : mods.contains("TF32") ? 32 : mods.contains("S4") || mods.contains("U4") ? 4
                : m.equals("IMMA") || m.equals("QMMA") ? 8 : 16;
        boolean sparse = mods.contains("SP");
        if (sparse && !dest && srcIndex >= 3) {
            return 1; // the metadata register (then the selector immediate)
        }
        if (dest || srcIndex == 2) {
            int acc = (m.equals("HMMA") || m.equals("QMMA")) && !mods.contains("F32") ? 16 : 32;
            return mnk[0] * mnk[1] * acc / 1024;
        }
        // a sparse A stores half of its k
        return srcIndex == 0 ? mnk[0] * mnk[2] * in / 1024 / (sparse ? 2 : 1) : mnk[2] * mnk[1] * in / 1024;
    }

    /** The type modifiers ({@code F32}, {@code S64}, ...) of an opcode, in the order the text gives them. */
    private static List<String> typeOrder(List<String> opcodeParts) {
        List<String> types = new ArrayList<>();
        for (int k = 1; k < opcodeParts.size(); k++) {
            if (isTypeModifier(opcodeParts.get(k))) {
                types.add(opcodeParts.get(k));
            }
        }
        return types;
    }

    /** {@code [FSU](8|16|32|64)}. */
    private static boolean isTypeModifier(String m) {
        if (m.length() < 2 || "FSU".indexOf(m.charAt(0)) < 0) {
            return false;
        }
        String size = m.substring(1);
        return size.equals("8") || size.equals("16") || size.equals("32") || size.equals("64");
    }

    /** Width of a conversion's operand; with two types the first is the destination's, the second the source's. */
    private static int conversionWidth(String m, List<String> types, boolean dest) {
        if (types.isEmpty()) {
            return 1;
        }
        if (types.size() >= 2) {
            return types.get(dest ? 0 : 1).endsWith("64") ? 2 : 1;
        }
        String t = types.get(0);
        if (!t.endsWith("64")) {
            return 1;
        }
        boolean floatType = t.startsWith("F");
        return switch (m) {
            case "F2I" -> floatType == !dest ? 2 : 1;
            case "I2F" -> floatType == dest ? 2 : 1;
            default -> 2;
        };
    }
}
