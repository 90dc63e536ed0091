package org.jptxas.scheduler.sass;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.jptxas.scheduler.control.ControlWord;
import org.jptxas.scheduler.control.ControlWordGenerator;
import org.jptxas.scheduler.hazard.Hazard;
import org.jptxas.scheduler.hazard.HazardChecker;
import org.jptxas.scheduler.latency.LatencyModel;
import org.jptxas.scheduler.model.ControlFlow;
import org.jptxas.scheduler.model.SchedFlag;
import org.jptxas.scheduler.model.SimpleInstr;

import org.jptxas.spi.TargetDescription;
import org.jptxas.ori.target.TargetFeature;
/**
 * Library entry points behind {@code jnvdisasm --recompute-control} and {@code --check-hazards}: keep an existing
 * instruction order, recompute its control words with the model, and compare them with the ones in the file; or
 * check the file's own control words for hazards.
 */
public final class ControlAgreement {
    private ControlAgreement() {}

    /** Counts of matching fields over some instructions. */
    public record Tally(int instructions, int stall, int waitMask, int yield, int writeSb, int readSb, int hazards,
                        Map<String, Integer> hazardKinds, Map<String, Integer> unknownMnemonics,
                        long ourStallCycles, long fileStallCycles) {
        public static Tally empty() {
            return new Tally(0, 0, 0, 0, 0, 0, 0, new TreeMap<>(), new TreeMap<>(), 0, 0);
        }

        public Tally plus(Tally o) {
            Map<String, Integer> hk = new TreeMap<>(hazardKinds);
            o.hazardKinds.forEach((k, v) -> hk.merge(k, v, Integer::sum));
            Map<String, Integer> um = new TreeMap<>(unknownMnemonics);
            o.unknownMnemonics.forEach((k, v) -> um.merge(k, v, Integer::sum));
            return new Tally(instructions + o.instructions, stall + o.stall, waitMask + o.waitMask, yield + o.yield,
                    writeSb + o.writeSb, readSb + o.readSb, hazards + o.hazards, hk, um,
                    ourStallCycles + o.ourStallCycles, fileStallCycles + o.fileStallCycles);
        }

        private static String pct(int a, int b) {
            return String.format("%d/%d (%.1f%%)", a, b, b == 0 ? 100.0 : 100.0 * a / b);
        }

        /** The report lines {@code jnvdisasm --recompute-control} prints per SM. */
        public String report(String sm) {
            return sm + ": stall agreement: " + pct(stall, instructions) + "\n"
                    + sm + ": wait agreement: " + pct(waitMask, instructions) + "\n"
                    + sm + ": yield agreement: " + pct(yield, instructions) + ", write-SB agreement: "
                    + pct(writeSb, instructions) + ", read-SB agreement: " + pct(readSb, instructions) + "\n"
                    + sm + ": stall cycles, same order: jptxas " + ourStallCycles + " vs ptxas " + fileStallCycles + "\n"
                    + sm + ": hazards in ptxas's control words: " + hazards + (hazardKinds.isEmpty() ? "" : " " + hazardKinds)
                    + (unknownMnemonics.isEmpty() ? "" : "\n" + sm + ": mnemonics without a latency class: " + unknownMnemonics.keySet());
        }
    }

    /** One function's instructions as scheduler instructions plus the control words found in the file. */
    public record Decoded(List<SimpleInstr> instrs, List<ControlWord> fileControl, ControlFlow flow,
                          Map<String, Integer> unknown) {}

    /**
     * What the control flow needs of one instruction: the label in front of it, whether it has a guard (other than
     * {@code @PT}), its mnemonic without modifiers and the label it branches to (null: none).
     */
    public record FlowLine(String label, boolean guarded, String mnemonic, String target) {}

    /** Branch edges from the labels: BRA/JMP to a label; unguarded BRA, JMP, BRX, JMX, EXIT, RET never fall through. */
    public static ControlFlow controlFlowOf(List<FlowLine> lines) {
        Map<String, Integer> labels = new java.util.HashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).label() != null) {
                labels.put(lines.get(i).label(), i);
            }
        }
        int n = lines.size();
        int[] targets = new int[n];
        boolean[] unconditional = new boolean[n];
        for (int i = 0; i < n; i++) {
            FlowLine l = lines.get(i);
            String m = l.mnemonic();
            boolean jump = m.equals("BRA") || m.equals("JMP");
            targets[i] = jump && l.target() != null && labels.containsKey(l.target()) ? labels.get(l.target()) : -1;
            unconditional[i] = !l.guarded() && (jump || m.equals("BRX") || m.equals("JMX") || m.equals("EXIT")
                    || m.equals("RET"));
        }
        return ControlFlow.fromBranches(targets, unconditional);
    }

    /**
     * As {@link #controlFlowOf}, for a listing: a decoded line read from its typed instruction (its branch target
     * by address, named by the label at that address), a line of nvdisasm's text from the text.
     */
    public static ControlFlow controlFlow(List<SassLine> lines) {
        Map<Long, String> labelAt = new java.util.HashMap<>();
        for (SassLine l : lines) {
            if (l.label() != null) {
                labelAt.put((long) l.address(), l.label());
            }
        }
        List<FlowLine> flow = new ArrayList<>(lines.size());
        for (SassLine l : lines) {
            flow.add(l.decoded() != null ? typedFlowLine(l, labelAt) : textFlowLine(l));
        }
        return controlFlowOf(flow);
    }

    private static FlowLine typedFlowLine(SassLine l, Map<Long, String> labelAt) {
        org.jptxas.sass.SassInstruction.Known k = l.decoded();
        boolean guarded = k.form().operands().guardSlot() >= 0 && !k.form().guardAlwaysTrue(k.values());
        List<Long> to = k.branchTargets(l.address());
        return new FlowLine(l.label(), guarded, mnemonic(k.mnemonic()), to.isEmpty() ? null : labelAt.get(to.get(0)));
    }

    /** A line of nvdisasm's text: {@code @!P0 BRA `(.L_x_3)}. */
    private static FlowLine textFlowLine(SassLine l) {
        String t = l.text().strip();
        boolean guarded = t.startsWith("@") && !t.startsWith("@PT ");
        String body = guarded ? t.substring(t.indexOf(' ') + 1).strip() : withoutTruePredicate(t);
        int tick = body.indexOf("`(");
        int close = tick < 0 ? -1 : body.indexOf(')', tick);
        return new FlowLine(l.label(), guarded, mnemonic(body), close < 0 ? null : body.substring(tick + 2, close));
    }

    /** {@code t} without a leading {@code @PT} and the blanks after it (as {@code replaceFirst("^@PT\\s+", "")}). */
    private static String withoutTruePredicate(String t) {
        if (!t.startsWith("@PT") || t.length() == 3 || !regexBlank(t.charAt(3))) {
            return t;
        }
        int k = 3;
        while (k < t.length() && regexBlank(t.charAt(k))) {
            k++;
        }
        return t.substring(k);
    }

    /** The characters of the regular expression class {@code \\s}. */
    private static boolean regexBlank(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == 0x0B || c == '\f' || c == '\r';
    }

    /**
     * The text up to the first blank, dot or semicolon (as {@code split("[ .;]", 2)[0]}): compiling those regular
     * expressions for every line was most of this method on large functions.
     */
    private static String mnemonic(String body) {
        for (int k = 0; k < body.length(); k++) {
            char c = body.charAt(k);
            if (c == ' ' || c == '.' || c == ';') {
                return body.substring(0, k);
            }
        }
        return body;
    }

    public static Decoded decode(List<SassLine> lines, LatencyModel model, boolean urInAddressBits) {
        SassReader parser = new SassReader(model, urInAddressBits);
        List<SimpleInstr> instrs = new ArrayList<>();
        List<ControlWord> control = new ArrayList<>();
        Map<String, Integer> unknown = new TreeMap<>();
        for (SassLine l : lines) {
            SassReader.Parsed p = parser.parse(l);
            instrs.add(p.instr());
            control.add(ControlWord.fromHighQword(l.hi()));
            if (!p.known()) {
                unknown.merge(p.mnemonic(), 1, Integer::sum);
            }
        }
        markEndLoop(instrs);
        return new Decoded(instrs, control, controlFlow(lines), unknown);
    }

    /** The unguarded BRA-to-itself that ends every function is padding: ptxas gives it stall 0, like the NOPs after. */
    private static void markEndLoop(List<SimpleInstr> instrs) {
        for (int i = instrs.size() - 1; i >= 0; i--) {
            SimpleInstr in = instrs.get(i);
            if (in.has(SchedFlag.NOP)) {
                continue;
            }
            if (in.has(SchedFlag.BRANCH) && in.guard() == null) {
                java.util.EnumSet<SchedFlag> f = java.util.EnumSet.of(SchedFlag.NOP, SchedFlag.BRANCH);
                instrs.set(i, new SimpleInstr(in.name(), in.latencyClass(), in.defs(), in.uses(), in.guard(),
                        in.reuseSlots(), in.memKind(), in.memSpace(), f, in.scoreboardDrain()));
            }
            return;
        }
    }

    /**
     * {@code jnvdisasm --recompute-control}: keeps each function's instruction order, recomputes the control bits
     * with the described target's model and returns its report lines ({@code stall agreement: N/M},
     * {@code wait agreement: N/M}, ...).
     */
    public static String recomputeControlReport(byte[] cubin, TargetDescription target) {
        return compareAll(DecodedListing.fromCubin(cubin, target.isa()), LatencyModel.of(target),
                urInAddressBits(target), DecodedListing.isDebug(cubin)).report(target.target().name());
    }

    /**
     * {@code jnvdisasm --check-hazards}: one line per hazard in the cubin's own control words
     * ({@code function+0xaddr: KIND ...}) for the described target; empty when there are none (the tool then exits
     * 0).
     */
    public static List<String> checkHazards(byte[] cubin, TargetDescription target) {
        LatencyModel model = LatencyModel.of(target);
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, List<SassLine>> f : DecodedListing.fromCubin(cubin, target.isa()).entrySet()) {
            for (Hazard h : checkHazards(f.getValue(), model, urInAddressBits(target))) {
                if (h.isError()) {
                    SassLine at = f.getValue().get(h.index());
                    out.add(String.format("%s+0x%04x: %s: %s (%s)", f.getKey(), at.address(), h.kind(), h.detail(), at.text()));
                }
            }
        }
        return out;
    }

    /** Whether the target's global accesses name a UR in their address bits. */
    public static boolean urInAddressBits(TargetDescription target) {
        return target.has(TargetFeature.UR_IN_GLOBAL_ADDRESS_BITS);
    }

    /** Hazards in the file's own control words. */
    public static List<Hazard> checkHazards(List<SassLine> lines, LatencyModel model, boolean urInAddressBits) {
        Decoded d = decode(lines, model, urInAddressBits);
        return new HazardChecker(model).check(d.instrs(), d.fileControl(), d.flow());
    }

    /** Recomputes control words for one function and compares them field by field with the file's. */
    public static Tally compare(List<SassLine> lines, LatencyModel model, boolean urInAddressBits) {
        return compare(lines, model, urInAddressBits, false);
    }

    /**
     * As {@link #compare(List, LatencyModel, boolean)}; {@code debugCode}: the cubin holds debug code (see
     * {@link DecodedListing#isDebug}), whose control words ptxas serializes.
     */
    public static Tally compare(List<SassLine> lines, LatencyModel model, boolean urInAddressBits, boolean debugCode) {
        Decoded d = decode(lines, model, urInAddressBits);
        ControlWordGenerator generator = new ControlWordGenerator(model);
        List<ControlWord> ours = debugCode ? generator.generateDebug(d.instrs()) : generator.generate(d.instrs(), d.flow());
        int stall = 0;
        int wait = 0;
        int yield = 0;
        int wr = 0;
        int rd = 0;
        long ourCycles = 0;
        long fileCycles = 0;
        for (int i = 0; i < ours.size(); i++) {
            ControlWord a = ours.get(i);
            ControlWord b = d.fileControl().get(i);
            ourCycles += a.stall();
            fileCycles += b.stall();
            stall += a.stall() == b.stall() ? 1 : 0;
            wait += a.waitMask() == b.waitMask() ? 1 : 0;
            yield += a.yield() == b.yield() ? 1 : 0;
            wr += a.writeSb() == b.writeSb() ? 1 : 0;
            rd += a.readSb() == b.readSb() ? 1 : 0;
        }
        List<Hazard> hazards = new HazardChecker(model).check(d.instrs(), d.fileControl(), d.flow());
        Map<String, Integer> kinds = new TreeMap<>();
        int errors = 0;
        for (Hazard h : hazards) {
            if (h.isError()) {
                errors++;
                kinds.merge(h.kind().name(), 1, Integer::sum);
            }
        }
        return new Tally(ours.size(), stall, wait, yield, wr, rd, errors, kinds, d.unknown(), ourCycles, fileCycles);
    }

    /** Compares every function of a listing. */
    public static Tally compareAll(Map<String, List<SassLine>> functions, LatencyModel model, boolean urInAddressBits) {
        return compareAll(functions, model, urInAddressBits, false);
    }

    /** Compares every function of a listing; {@code debugCode} as in {@link #compare(List, LatencyModel, boolean, boolean)}. */
    public static Tally compareAll(Map<String, List<SassLine>> functions, LatencyModel model, boolean urInAddressBits, boolean debugCode) {
        Tally t = Tally.empty();
        for (List<SassLine> f : functions.values()) {
            t = t.plus(compare(f, model, urInAddressBits, debugCode));
        }
        return t;
    }

    /** A side-by-side listing of one function: text, the file's control word, ours. For calibration. */
    public static String diff(List<SassLine> lines, LatencyModel model, boolean urInAddressBits) {
        Decoded d = decode(lines, model, urInAddressBits);
        List<ControlWord> ours = new ControlWordGenerator(model).generate(d.instrs(), d.flow());
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < lines.size(); i++) {
            ControlWord a = d.fileControl().get(i);
            ControlWord b = ours.get(i);
            sb.append(String.format("%04x %-48.48s | %-28s | %-28s%s%n", lines.get(i).address(), lines.get(i).text(), a, b,
                    a.stall() != b.stall() || a.waitMask() != b.waitMask() ? "  <<" : ""));
        }
        return sb.toString();
    }

    static TreeSet<String> none() {
        return new TreeSet<>();
    }
}
