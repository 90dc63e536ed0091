package org.jptxas.scheduler.sass;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.jptxas.scheduler.control.ControlWord;
import org.jptxas.scheduler.hazard.Hazard;
import org.jptxas.scheduler.hazard.HazardChecker;
import org.jptxas.scheduler.latency.LatencyModel;
import org.jptxas.scheduler.model.RegRange;
import org.jptxas.testing.Corpus;
import org.jptxas.testing.OracleCubins;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.gate.Figures;
import org.jptxas.testing.gate.Gate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.jptxas.spi.TestTargets;

/**
 * ptxas's own control bits are the independent reference for jptxas's latency model, control-word generator and
 * hazard checker (issue 8's acceptance measure). Keeping ptxas 13's instruction order, the control words are
 * recomputed with jptxas's model and compared with ptxas's field by field (agreement, held as figures per SM); the
 * static {@link HazardChecker} must find nothing in ptxas's code (the model is never more pessimistic than ptxas) and
 * must catch faults planted in it (a latency-bound stall shortened, a needed scoreboard wait dropped: the model is not
 * blind), at catch rates held as figures. The slow test sweeps every ptxas-accepted corpus file on sm_75, 80, 86, 89
 * and 90 and writes {@code target/control-agreement.txt}; ptxas failing on a file it accepts is an oracle failure.
 */
class ControlAgreementOracleTest {
    static final List<String> SMS = List.of("sm_75", "sm_80", "sm_86", "sm_89", "sm_90");
    private static final List<String> FAST_FILES = List.of("ptx/cudarc/sin.ptx", "ptx/cudarc/custom_kernels.ptx",
            "ptx/cuda_jl/test__core__ptx__vadd.ptx");

    /** ptxas's code for one input: its functions as decoded by jptxas, or ptxas's diagnostics when it failed. */
    record PtxasCode(Optional<Map<String, List<SassLine>>> functions, boolean debug, String diagnostics) {
        static PtxasCode of(OracleCubins.Compiled c, String sm) {
            if (!c.ok()) {
                return new PtxasCode(Optional.empty(), false, c.diagnostics());
            }
            try {
                byte[] cubin = Files.readAllBytes(c.cubin().orElseThrow());
                return new PtxasCode(Optional.of(DecodedListing.fromCubin(cubin, TestTargets.of(sm).isa())), DecodedListing.isDebug(cubin), "");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /**
     * Corpus files whose ptxas code the checker flags, with why (exact: an entry that stops occurring fails). The
     * model forgets a scoreboard's producer history where control flow joins, so a {@code DEPBAR.LE SB5, 1} inside
     * a loop does not show that the older of two in-order texture fetches is complete.
     */
    static final Map<String, String> KNOWN_HAZARDS = knownHazards();

    private static Map<String, String> knownHazards() {
        Map<String, String> m = new LinkedHashMap<>();
        for (String sm : List.of("sm_75", "sm_80", "sm_86", "sm_89")) {
            m.put("ptx/gpuocelot/parboil__spmv-main.ptx@" + sm, "DEPBAR.LE counts across a loop's join (TLD, SB5)");
        }
        return m;
    }

    /** One SM's sweep: the gate (inputs compared; ptxas failures; hazards in ptxas's code) and the agreement. */
    record Sweep(Gate gate, ControlAgreement.Tally tally) {}

    /**
     * The gate's core: for each input, ptxas's code through {@link ControlAgreement#compareAll}. An input ptxas fails
     * on is an oracle failure; a hazard the checker reports in ptxas's own control words is a difference (the model
     * is too pessimistic there); our code throwing is a crash. Never drops an input.
     */
    static Sweep sweep(String sm, List<String> inputs, Function<String, PtxasCode> ptxas) {
        return sweep(sm, inputs, ptxas, Map.of());
    }

    /** As above, with the known hazards of {@code known} excused. */
    static Sweep sweep(String sm, List<String> inputs, Function<String, PtxasCode> ptxas, Map<String, String> known) {
        LatencyModel model = LatencyModel.of(TestTargets.of(sm));
        int smNumber = Integer.parseInt(sm.substring(3));
        Gate gate = Gate.withKnown("control agreement with ptxas on " + sm, known);
        AtomicReference<ControlAgreement.Tally> total = new AtomicReference<>(ControlAgreement.Tally.empty());
        inputs.parallelStream().forEach(input -> {
            String key = input + "@" + sm;
            PtxasCode code = ptxas.apply(input);
            if (code.functions().isEmpty()) {
                gate.oracleFailed(key, "ptxas failed: " + code.diagnostics());
                return;
            }
            ControlAgreement.Tally t;
            try {
                t = ControlAgreement.compareAll(code.functions().get(), model, smNumber < 90, code.debug());
            } catch (RuntimeException | StackOverflowError e) {
                gate.crash(key, e);
                return;
            }
            total.accumulateAndGet(t, ControlAgreement.Tally::plus);
            if (t.hazards() > 0) {
                gate.differ(key, t.hazards() + " hazards in ptxas's own control words " + t.hazardKinds());
            } else {
                gate.pass();
            }
        });
        return new Sweep(gate, total.get());
    }

    private static PtxasCode ptxas(Path corpus, String input, String sm) {
        return PtxasCode.of(OracleCubins.ptxas13(corpus.resolve(input), sm), sm);
    }

    @Test
    void smallKernelsOnSm80AgreeWithPtxas() {
        Oracles.assumePtxas13();
        Path corpus = Corpus.assumeDir();
        Sweep s = sweep("sm_80", FAST_FILES, f -> ptxas(corpus, f, "sm_80"));
        System.out.println(s.gate().summary() + "\n" + s.tally().report("sm_80"));
        s.gate().verify(FAST_FILES.size());
        Figures.checkPercent("scheduler.agreement.sample.stall.sm_80", s.tally().stall(), s.tally().instructions());
        Figures.checkPercent("scheduler.agreement.sample.wait.sm_80", s.tally().waitMask(), s.tally().instructions());
    }

    /** Planted faults: how many were planted and how many the checker caught (more errors than in the original). */
    record Catch(int planted, int caught) {
        Catch plus(Catch o) {
            return new Catch(planted + o.planted, caught + o.caught);
        }
    }

    /** Which fault to plant. */
    enum Fault {
        /**
         * A latency-bound stall (3 or more cycles, no scoreboard, before an instruction that reads the result) cut
         * to 1.
         */
        SHORTENED_STALL,
        /**
         * A needed scoreboard wait dropped: the instruction reads a register the nearest earlier setter of the
         * scoreboard writes, nothing between them waits on that scoreboard, and fewer cycles pass between them than
         * the producer's class may take ({@code maxLatency}: ptxas itself reads variable-latency results that late
         * without a wait, so waits placed later than that are not needed by the model, and dropping them is not a
         * fault).
         */
        DROPPED_WAIT
    }

    /** Plants each fault of the kind, one at a time, into one function's control words and runs the checker. */
    static Catch plant(Fault fault, ControlAgreement.Decoded d, LatencyModel model) {
        HazardChecker checker = new HazardChecker(model);
        List<ControlWord> words = d.fileControl();
        long baseline = errors(checker.check(d.instrs(), words, d.flow()));
        int planted = 0;
        int caught = 0;
        for (int i = 0; i < words.size(); i++) {
            List<ControlWord> m = fault == Fault.SHORTENED_STALL ? shortenStall(d, i) : dropWait(d, i, model);
            if (m == null) {
                continue;
            }
            planted++;
            caught += errors(checker.check(d.instrs(), m, d.flow())) > baseline ? 1 : 0;
        }
        return new Catch(planted, caught);
    }

    private static long errors(List<Hazard> hazards) {
        return hazards.stream().filter(Hazard::isError).count();
    }

    private static List<ControlWord> shortenStall(ControlAgreement.Decoded d, int i) {
        ControlWord w = d.fileControl().get(i);
        if (i + 1 >= d.instrs().size() || w.stall() < 3 || w.writeSb() != ControlWord.NONE
                || !overlaps(d.instrs().get(i).defs(), d.instrs().get(i + 1).uses())) {
            return null;
        }
        List<ControlWord> m = new ArrayList<>(d.fileControl());
        m.set(i, new ControlWord(1, w.yield(), w.writeSb(), w.readSb(), w.waitMask(), w.reuse()));
        return m;
    }

    private static List<ControlWord> dropWait(ControlAgreement.Decoded d, int i, LatencyModel model) {
        ControlWord w = d.fileControl().get(i);
        for (int sb = 0; sb < 6; sb++) {
            if ((w.waitMask() >> sb & 1) == 0) {
                continue;
            }
            int cycles = 0;
            for (int p = i - 1; p >= 0; p--) {
                ControlWord pw = d.fileControl().get(p);
                cycles += pw.stall();
                if (pw.writeSb() == sb) {
                    int max = model.findClass(d.instrs().get(p).latencyClass()).map(c -> c.maxLatency()).orElse(0);
                    if (!overlaps(d.instrs().get(p).defs(), d.instrs().get(i).uses()) || max > 0 && cycles >= max) {
                        break;
                    }
                    List<ControlWord> m = new ArrayList<>(d.fileControl());
                    m.set(i, new ControlWord(w.stall(), w.yield(), w.writeSb(), w.readSb(), w.waitMask() & ~(1 << sb),
                            w.reuse()));
                    return m;
                }
                if ((pw.waitMask() >> sb & 1) != 0) {
                    break; // released before i already: this wait is not the one that protects the read
                }
            }
        }
        return null;
    }

    private static boolean overlaps(List<RegRange> a, List<RegRange> b) {
        return a.stream().anyMatch(r -> b.stream().anyMatch(r::overlaps));
    }

    /** Plants {@code fault} into every function of ptxas's code for the fast files, on every SM. */
    private static Catch plantIntoPtxas(Fault fault) {
        Oracles.assumePtxas13();
        Path corpus = Corpus.assumeDir();
        Catch c = new Catch(0, 0);
        for (String sm : SMS) {
            LatencyModel model = LatencyModel.of(TestTargets.of(sm));
            int smNumber = Integer.parseInt(sm.substring(3));
            for (String f : FAST_FILES) {
                PtxasCode code = ptxas(corpus, f, sm);
                assertTrue(code.functions().isPresent(), () -> "ptxas failed on " + f + " for " + sm + ": " + code.diagnostics());
                for (List<SassLine> lines : code.functions().get().values()) {
                    c = c.plus(plant(fault, ControlAgreement.decode(lines, model, smNumber < 90), model));
                }
            }
        }
        return c;
    }

    /** The checker is not blind to stalls: cutting ptxas's latency-bound stalls is caught (rate held as a figure). */
    @Test
    void shorteningPtxasStallsIsCaught() {
        Catch c = plantIntoPtxas(Fault.SHORTENED_STALL);
        System.out.println("shortened stalls: " + c.caught() + " of " + c.planted() + " caught");
        assertTrue(c.planted() > 100, "planted " + c.planted());
        Figures.checkPercent("scheduler.planted.stall.caught", c.caught(), c.planted());
    }

    /** ... nor to scoreboards: dropping a wait ptxas placed before a read of the result is caught. */
    @Test
    void droppingPtxasWaitsIsCaught() {
        Catch c = plantIntoPtxas(Fault.DROPPED_WAIT);
        System.out.println("dropped waits: " + c.caught() + " of " + c.planted() + " caught");
        assertTrue(c.planted() > 100, "planted " + c.planted());
        Figures.checkPercent("scheduler.planted.wait.caught", c.caught(), c.planted());
    }

    // The gate's own logic on planted input (no oracle needed).

    private static SassLine line(int index, String text, ControlWord w) {
        return new SassLine("k", index * 16, text, 0, (long) w.pack() << 41, null);
    }

    /** A load, a read of its result after waiting on its scoreboard, the end: hazard-free as ptxas would write it. */
    static Map<String, List<SassLine>> loadThenUse(boolean waitDropped) {
        List<SassLine> l = List.of(
                line(0, "LDG.E R2, [R4.64]", new ControlWord(4, true, 0, ControlWord.NONE, 0, 0)),
                line(1, "FADD R3, R2, R2", new ControlWord(6, true, ControlWord.NONE, ControlWord.NONE,
                        waitDropped ? 0 : 1, 0)),
                line(2, "STG.E [R4.64], R3", new ControlWord(1, true, ControlWord.NONE, ControlWord.NONE, 0, 0)),
                line(3, "EXIT", new ControlWord(5, true, ControlWord.NONE, ControlWord.NONE, 0, 0)));
        Map<String, List<SassLine>> m = new LinkedHashMap<>();
        m.put("k", l);
        return m;
    }

    @Test
    void theSweepPassesOnHazardFreeCode() {
        Sweep s = sweep("sm_80", List.of("a", "b"), f -> new PtxasCode(Optional.of(loadThenUse(false)), false, ""));
        s.gate().verify(2);
        assertEquals(8, s.tally().instructions());
    }

    @Test
    void theSweepFailsOnAnEmptyCorpus() {
        Sweep s = sweep("sm_80", List.of(), f -> new PtxasCode(Optional.of(loadThenUse(false)), false, ""));
        assertFalse(s.gate().passes(1));
    }

    @Test
    void theSweepFailsWhenPtxasFails() {
        Sweep s = sweep("sm_80", List.of("a", "b"), f -> f.equals("b")
                ? new PtxasCode(Optional.empty(), false, "ptxas fatal: planted") : new PtxasCode(Optional.of(loadThenUse(false)), false, ""));
        assertFalse(s.gate().passes(1));
        assertEquals(1, s.gate().oracleFailures().size());
    }

    @Test
    void theSweepFailsOnAHazardInPtxasCode() {
        Sweep s = sweep("sm_80", List.of("a", "b"), f -> new PtxasCode(Optional.of(loadThenUse(f.equals("b"))), false, ""));
        assertFalse(s.gate().passes(1));
        assertEquals(1, s.gate().differences().size(), s.gate().summary());
    }

    @Test
    void theSweepFailsWhenOurCodeThrows() {
        Sweep s = sweep("sm_80", List.of("a"), f -> {
            Map<String, List<SassLine>> bad = new LinkedHashMap<>();
            bad.put("k", null); // decoding a missing listing throws inside ControlAgreement
            return new PtxasCode(Optional.of(bad), false, "");
        });
        assertEquals(1, s.gate().crashes().size(), s.gate().summary());
    }

    @Test
    void plantingFindsTheDroppedWaitAndTheCheckerCatchesIt() {
        LatencyModel model = LatencyModel.of(TestTargets.of("sm_80"));
        ControlAgreement.Decoded d = ControlAgreement.decode(loadThenUse(false).get("k"), model, true);
        assertEquals(new Catch(1, 1), plant(Fault.DROPPED_WAIT, d, model));
    }

    /**
     * Whether ptxas compiles a file whose {@code ptxas_arch} column is {@code ptxasArch} for {@code sm_<sm>}: an
     * older or equal plain target; an arch-specific one ({@code sm_90a}) only for itself, so never here.
     */
    static boolean targetAllows(String ptxasArch, int sm) {
        String want = ptxasArch.isEmpty() ? "75" : ptxasArch.replaceFirst("^sm_", "");
        return want.chars().allMatch(Character::isDigit) && Integer.parseInt(want) <= sm;
    }

    @Test
    void archSpecificTargetsAreNotSweptForTheirPlainSm() {
        assertTrue(targetAllows("sm_75", 90));
        assertTrue(targetAllows("sm_90", 90));
        assertFalse(targetAllows("sm_90a", 90), "ptxas refuses .target sm_90a for sm_90");
        assertFalse(targetAllows("sm_80", 75));
    }

    /**
     * Every ptxas-accepted corpus file on every SM, in CI. Figures: stall and wait agreement per SM; the gate: no
     * hazard in ptxas's code, no ptxas failure, every file compared.
     */
    @Test
    @Tag("slow")
    void corpusAgreementPerSm() throws IOException {
        Oracles.assumePtxas13();
        Path corpus = Corpus.assumeDir();
        List<Corpus.Entry> entries = Corpus.assumeEntries().stream().filter(Corpus.Entry::ptxasAccepts).toList();
        StringBuilder report = new StringBuilder();
        Map<String, Sweep> bySm = new LinkedHashMap<>();
        Map<String, Integer> selected = new LinkedHashMap<>();
        for (String sm : SMS) {
            int smNumber = Integer.parseInt(sm.substring(3));
            List<String> chosen = entries.stream().filter(e -> targetAllows(e.arch(), smNumber))
                    .map(e -> corpus.relativize(e.file()).toString()).toList();
            selected.put(sm, chosen.size());
            Map<String, String> known = new LinkedHashMap<>();
            KNOWN_HAZARDS.forEach((k, why) -> {
                if (k.endsWith("@" + sm)) {
                    known.put(k, why);
                }
            });
            Sweep s = sweep(sm, chosen, f -> ptxas(corpus, f, sm), known);
            bySm.put(sm, s);
            report.append(s.gate().summary()).append('\n').append(s.tally().report(sm)).append("\n");
        }
        Path out = Path.of("target", "control-agreement.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, report.toString());
        System.out.println(report);
        for (Map.Entry<String, Sweep> e : bySm.entrySet()) {
            // every file selected was compared (an empty corpus fails: at least one)
            e.getValue().gate().verify(Math.max(1, selected.get(e.getKey())));
            ControlAgreement.Tally t = e.getValue().tally();
            Figures.checkPercent("scheduler.agreement.stall." + e.getKey(), t.stall(), t.instructions());
            Figures.checkPercent("scheduler.agreement.wait." + e.getKey(), t.waitMask(), t.instructions());
        }
    }
}
