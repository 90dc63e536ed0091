package org.jptxas.scheduler.codegen;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jptxas.isel.codegen.CodeLine;
import org.jptxas.scheduler.latency.LatencyModel;
import org.jptxas.scheduler.model.RegFile;
import org.jptxas.scheduler.model.RegRange;
import org.jptxas.scheduler.model.SchedFlag;
import org.jptxas.scheduler.model.SimpleInstr;
import org.jptxas.scheduler.sass.SassLine;
import org.jptxas.scheduler.sass.SassText;

/**
 * The scheduler's view of generated SASS lines: {@link SassText} plus what the text does not show. On sm_80 … sm_89
 * every {@code .E} global or generic access reads the memory descriptor in UR4/UR5 (see the code generator's
 * {@code GlobalDescriptor}), which must stay after the {@code ULDC.64} that loads it.
 *
 * <p>{@link #forMotion} adds the constraints that only matter when instructions move: mnemonics without a latency
 * class and clock reads keep their place (order points); warp-synchronous instructions and ordered (strong,
 * volatile) memory accesses order every memory access, like fences.
 */
final class SassView {
    /** The uniform pair the descriptor lives in (ptxas's and the code generator's choice). */
    static final int DESCRIPTOR_UR = 4;
    private static final Set<String> DESCRIPTOR_USERS = Set.of("LDG", "STG", "LD", "ST", "ATOM", "ATOMG", "RED", "REDG");
    private static final Set<String> WARP_SYNC = Set.of("SHFL", "VOTE", "VOTEU", "MATCH", "REDUX", "ELECT");
    /** The first register of an address operand, unless printed as a pair ({@code .64}). */
    private static final Pattern ADDRESS = Pattern.compile("\\[(UR|R)(\\d+)(?![\\d.])");
    private static final Set<String> ORDERED_MEMORY = Set.of("STRONG", "SYS", "GPU", "SM", "VOLATILE", "MMIO");

    private final SassText parser;
    private final boolean descriptorInUr;
    /** Parses by line text: what a line means depends on its text alone, and the passes view each line twice. */
    private final Map<String, SassText.Parsed> parsed = new HashMap<>();
    private final Map<String, SimpleInstr> motion = new HashMap<>();

    /**
     * @param descriptorInUr  {@code .E} accesses read the memory descriptor from UR4/UR5
     *     ({@link org.jptxas.ori.target.TargetFeature#GLOBAL_DESCRIPTOR_IN_UR})
     * @param urInAddressBits {@link org.jptxas.ori.target.TargetFeature#UR_IN_GLOBAL_ADDRESS_BITS}
     */
    SassView(LatencyModel model, boolean descriptorInUr, boolean urInAddressBits) {
        this.parser = new SassText(model, urInAddressBits);
        this.descriptorInUr = descriptorInUr;
    }

    /** The instruction as control-word generation and the hazard checker see it. */
    SimpleInstr forControl(CodeLine line, int index) {
        return parse(line, index).instr();
    }

    /** The instruction with the extra ordering constraints of code motion. */
    SimpleInstr forMotion(CodeLine line, int index) {
        return motion.computeIfAbsent(line.text(), t -> motionOf(line, index));
    }

    private SimpleInstr motionOf(CodeLine line, int index) {
        SassText.Parsed p = parse(line, index);
        SimpleInstr in = p.instr();
        Set<String> mods = modifiers(line);
        SchedFlag extra = null;
        if (!p.known() || line.text().contains("SR_CLOCK") || line.text().contains("SR_GLOBALTIMER")) {
            extra = SchedFlag.CONTROL;
        } else if (WARP_SYNC.contains(p.mnemonic())
                || in.memKind() != org.jptxas.scheduler.model.MemKind.NONE && mods.stream().anyMatch(ORDERED_MEMORY::contains)) {
            extra = SchedFlag.FENCE;
        }
        if (extra == null) {
            return in;
        }
        EnumSet<SchedFlag> flags = EnumSet.of(extra);
        flags.addAll(in.flags());
        return new SimpleInstr(in.name(), in.latencyClass(), in.defs(), in.uses(), in.guard(), in.reuseSlots(),
                in.memKind(), in.memSpace(), flags, in.scoreboardDrain());
    }

    private SassText.Parsed parse(CodeLine line, int index) {
        SassText.Parsed p = parsed.get(line.text());
        if (p == null) {
            p = parseText(line, index);
            parsed.put(line.text(), p);
        }
        return p;
    }

    private SassText.Parsed parseText(CodeLine line, int index) {
        boolean descriptor = descriptorInUr;
        long lo = (long) (descriptor ? DESCRIPTOR_UR : RegFile.UR.zero()) << 32;
        SassText.Parsed p = parser.parse(new SassLine("", index * 16, line.text(), lo, 0, line.label()));
        SimpleInstr in = p.instr();
        if (DESCRIPTOR_USERS.contains(p.mnemonic()) && modifiers(line).contains("E")) {
            in = widenAddress(in, line.text());
            p = new SassText.Parsed(in, p.mnemonic(), p.known());
        }
        // SassText reads the descriptor of loads and atomics from the encoding; stores and reductions read it too.
        if (descriptor && DESCRIPTOR_USERS.contains(p.mnemonic()) && modifiers(line).contains("E")
                && !line.text().contains("desc[") && !readsDescriptor(in)) {
            List<RegRange> uses = new ArrayList<>(in.uses());
            uses.add(new RegRange(RegFile.UR, DESCRIPTOR_UR, 2));
            in = new SimpleInstr(in.name(), in.latencyClass(), in.defs(), uses, in.guard(), in.reuseSlots(),
                    in.memKind(), in.memSpace(), in.flags(), in.scoreboardDrain());
            p = new SassText.Parsed(in, p.mnemonic(), p.known());
        }
        return p;
    }

    /**
     * {@code .E} accesses take a 64-bit address: sm_75 prints its register pair as {@code [R2]} (later SMs as
     * {@code [R2.64]}), so a lone address register is widened to the pair it names.
     */
    private static SimpleInstr widenAddress(SimpleInstr in, String text) {
        Matcher m = ADDRESS.matcher(text);
        if (!m.find()) {
            return in;
        }
        RegFile file = m.group(1).equals("UR") ? RegFile.UR : RegFile.R;
        int reg = Integer.parseInt(m.group(2));
        List<RegRange> uses = new ArrayList<>(in.uses());
        boolean changed = false;
        for (int k = 0; k < uses.size(); k++) {
            RegRange r = uses.get(k);
            if (r.file() == file && r.first() == reg && r.count() == 1 && reg + 1 < file.zero()) {
                uses.set(k, new RegRange(file, reg, 2));
                changed = true;
                break;
            }
        }
        return changed ? new SimpleInstr(in.name(), in.latencyClass(), in.defs(), uses, in.guard(), in.reuseSlots(),
                in.memKind(), in.memSpace(), in.flags(), in.scoreboardDrain()) : in;
    }

    private static Set<String> modifiers(CodeLine line) {
        return new java.util.HashSet<>(List.of(line.opcode().split("\\.")));
    }

    private static boolean readsDescriptor(SimpleInstr in) {
        for (RegRange r : in.uses()) {
            if (r.file() == RegFile.UR && r.first() == DESCRIPTOR_UR) {
                return true;
            }
        }
        return false;
    }
}
