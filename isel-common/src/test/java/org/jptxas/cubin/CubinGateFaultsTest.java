package org.jptxas.cubin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.jptxas.isel.gates.Planted;
import org.jptxas.testing.OracleCubins;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.gate.Gate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Planted faults for the cubin corpus gates ({@link CorpusRoundTripTest}, {@link BuilderCompletenessTest},
 * {@link ResourceReportCorpusTest}, {@link RelocationsNvlinkTest}), on the committed fixture cubins: each fault must
 * fail its gate, and the unplanted control must pass.
 */
class CubinGateFaultsTest {
    @TempDir
    Path dir;

    /** A kernel whose cubin the builder covers (no module variables, relocations or DWARF), unlike the fixtures. */
    private static final String COVERED_PTX = """
            .version 8.0
            .target sm_75
            .address_size 64
            .visible .entry k(.param .u64 p)
            {
                .reg .b32 %r<2>;
                .reg .b64 %rd<3>;
                ld.param.u64 %rd1, [p];
                cvta.to.global.u64 %rd2, %rd1;
                mov.u32 %r1, %tid.x;
                st.global.u32 [%rd2], %r1;
                ret;
            }
            """;

    private final List<CorpusCubin> covered = List.of(Planted.job("k.ptx", "sm_80", false), Planted.job("k.ptx", "sm_90", true));

    /** ptxas 13's cubin of {@link #COVERED_PTX} (cached). */
    private OracleCubins.Compiled coveredCubin(CorpusCubin job) {
        try {
            // a file per job: the gate compiles its jobs in parallel, and a shared file could be read half written
            Path ptx = java.nio.file.Files.createDirectories(dir.resolve(job.arch() + (job.relocatable() ? "-c" : "")))
                    .resolve("k.ptx");
            java.nio.file.Files.writeString(ptx, COVERED_PTX);
            return job.relocatable() ? OracleCubins.ptxas13(ptx, job.arch(), "-c") : OracleCubins.ptxas13(ptx, job.arch());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private final List<CorpusCubin> jobs = List.of(Planted.job("a.ptx", "sm_75", false), Planted.job("b.ptx", "sm_90", true));

    private OracleCubins.Compiled fixture(CorpusCubin job) {
        String name = job.relocatable() ? "fixture_sm_90_c.cubin" : "fixture_sm_75.cubin";
        return Planted.compiled(dir, name, Fixtures.bytes(name));
    }

    /** {@code c} with one bit of section {@code name}'s fifth byte flipped (the first record's value in .nv.info). */
    static Cubin flipped(Cubin c, String name) {
        int i = c.sectionIndex(name);
        Section s = c.section(i);
        byte[] d = Planted.flip(s.data(), 4, 0);
        return c.withSection(i, new Section(s.name(), s.nameOffset(), s.type(), s.flags(), s.addr(), s.size(), s.link(),
                s.info(), s.addralign(), s.entsize(), d));
    }

    // CorpusRoundTripTest

    @Test
    void roundTripControlPassesAndFaultsFail() {
        assertTrue(CorpusRoundTripTest.roundTrip(jobs, this::fixture, Cubin::write).gate().passes(2));
        assertFalse(CorpusRoundTripTest.roundTrip(List.of(), this::fixture, Cubin::write).gate().passes(1));
        Gate bit = CorpusRoundTripTest.roundTrip(jobs, this::fixture, c -> Planted.flip(c.write(), 200, 3)).gate();
        assertEquals(2, bit.differences().size(), bit.summary());
        Gate crash = CorpusRoundTripTest.roundTrip(jobs, this::fixture, c -> {
            throw new IllegalStateException("planted");
        }).gate();
        assertEquals(2, crash.crashes().size());
        Gate ptxas = CorpusRoundTripTest.roundTrip(jobs, j -> Planted.failed("ptxas fatal   : Memory allocation failure"),
                Cubin::write).gate();
        assertEquals(2, ptxas.oracleFailures().size());
        assertFalse(ptxas.passes(1));
    }

    // BuilderCompletenessTest

    @Test
    void builderCompletenessControlPassesAndFaultsFail() {
        Oracles.assumePtxas13();
        BuilderCompletenessTest.Completeness control = BuilderCompletenessTest.measure(covered, this::coveredCubin, Map.of(),
                BuilderCompletenessTest.BUILDER);
        assertTrue(control.gate().passes(2), control.gate().summary());
        assertEquals(2, control.framesFromCode());
        BuilderCompletenessTest.Builder wrongInfo = new BuilderCompletenessTest.Builder() {
            @Override
            public Cubin rebuild(Cubin ptxas, boolean derive) {
                return flipped(BuilderCompletenessTest.BUILDER.rebuild(ptxas, derive), ".nv.info");
            }

            @Override
            public byte[] debugFrame(Cubin ptxas) {
                return Planted.flip(BuilderCompletenessTest.BUILDER.debugFrame(ptxas), 0, 0);
            }
        };
        BuilderCompletenessTest.Completeness m = BuilderCompletenessTest.measure(covered, this::coveredCubin, Map.of(), wrongInfo);
        assertEquals(2, m.gate().differences().size(), m.gate().summary());
        assertEquals(0, m.framesFromCode(), "a flipped .debug_frame bit lowers the figure");
        BuilderCompletenessTest.Completeness crash = BuilderCompletenessTest.measure(covered, this::coveredCubin,
                Map.of(), new BuilderCompletenessTest.Builder() {
                    @Override
                    public Cubin rebuild(Cubin ptxas, boolean derive) {
                        throw new IllegalStateException("planted");
                    }

                    @Override
                    public byte[] debugFrame(Cubin ptxas) {
                        return new byte[0];
                    }
                });
        assertEquals(2, crash.gate().crashes().size());
        BuilderCompletenessTest.Completeness stale = BuilderCompletenessTest.measure(covered, this::coveredCubin,
                Map.of("k.ptx sm_80", "planted"), BuilderCompletenessTest.BUILDER);
        assertEquals(1, stale.gate().stale().size());
        assertFalse(BuilderCompletenessTest.measure(List.of(), this::coveredCubin, Map.of(), BuilderCompletenessTest.BUILDER)
                .gate().passes(1));
    }

    // ResourceReportCorpusTest

    private ResourceReportCorpusTest.Verbose verbose(CorpusCubin job) {
        byte[] bytes = Fixtures.bytes(job.relocatable() ? "fixture_sm_90_c.cubin" : "fixture_sm_75.cubin");
        return new ResourceReportCorpusTest.Verbose(0, ResourceReport.format("ptxas", Cubin.read(bytes)), bytes);
    }

    @Test
    void resourceReportControlPassesAndFaultsFail() {
        AtomicInteger spills = new AtomicInteger();
        java.util.function.Function<byte[], String> report = b -> ResourceReport.format("ptxas", Cubin.read(b));
        assertTrue(ResourceReportCorpusTest.compare(jobs, this::verbose, report, Map.of(), spills).passes(2));
        assertFalse(ResourceReportCorpusTest.compare(List.of(), this::verbose, report, Map.of(), spills).passes(1));
        Gate wrong = ResourceReportCorpusTest.compare(jobs, this::verbose,
                b -> report.apply(b).replaceFirst("Used (\\d+) registers", "Used 999 registers"), Map.of(), spills);
        assertEquals(2, wrong.differences().size(), wrong.summary());
        Gate failing = ResourceReportCorpusTest.compare(jobs,
                j -> new ResourceReportCorpusTest.Verbose(255, "ptxas fatal   : Segmentation fault", null), report,
                Map.of(), spills);
        assertEquals(2, failing.oracleFailures().size());
        Gate stale = ResourceReportCorpusTest.compare(jobs, this::verbose, report, Map.of("a.ptx sm_75", "planted"),
                spills);
        assertFalse(stale.passes(1));
    }

    // RelocationsNvlinkTest (links a fixture -c object with the real nvlink 13)

    @Test
    void nvlinkControlPassesAndFaultsFail() {
        Path nvlink = Oracles.assumeNvlink13();
        List<CorpusCubin> objects = List.of(Planted.job("c.ptx", "sm_90", true));
        java.util.function.Function<CorpusCubin, OracleCubins.Compiled> call =
                j -> Planted.compiled(dir, "call_sm_90_c.cubin", Fixtures.bytes("call_sm_90_c.cubin"));
        AtomicInteger n = new AtomicInteger();
        java.util.function.BiFunction<CorpusCubin, Path, RelocationsNvlinkTest.Linked> link =
                (j, o) -> RelocationsNvlinkTest.link(nvlink, j, o, dir.resolve("linked" + n.incrementAndGet()));
        Gate control = RelocationsNvlinkTest.compare(objects, call, link, new TreeMap<>());
        assertTrue(control.passes(1), control.summary());
        // nvlink's output with one bit flipped in every relocated place of the object: our applied bytes differ.
        Gate wrong = RelocationsNvlinkTest.compare(objects, call, (j, o) -> {
            RelocationsNvlinkTest.Linked l = link.apply(j, o);
            return new RelocationsNvlinkTest.Linked(0, "", flipRelocated(Cubin.read(Fixtures.bytes("call_sm_90_c.cubin")),
                    Cubin.read(l.cubin())).write());
        }, new TreeMap<>());
        assertFalse(wrong.differences().isEmpty(), wrong.summary());
        Gate failing = RelocationsNvlinkTest.compare(objects, call,
                (j, o) -> new RelocationsNvlinkTest.Linked(1, "nvlink fatal", null), new TreeMap<>());
        assertEquals(1, failing.oracleFailures().size());
        assertFalse(RelocationsNvlinkTest.compare(List.of(), call, link, new TreeMap<>()).passes(1));
    }

    /** {@code linked} with bit 0 of the first byte of every place {@code object} relocates flipped. */
    private static Cubin flipRelocated(Cubin object, Cubin linked) {
        for (Section rel : object.sections()) {
            if (rel.type() != SectionType.REL && rel.type() != SectionType.RELA) {
                continue;
            }
            String target = object.section(rel.info()).name();
            int i = linked.sectionIndex(target);
            if (i < 0) {
                continue;
            }
            Section s = linked.section(i);
            byte[] d = s.data();
            for (Relocation r : Relocations.decode(rel)) {
                int at = (int) (s.isText() ? r.offset() & ~15L : r.offset());
                if (at < d.length) {
                    d[at] ^= 1;
                }
            }
            linked = linked.withSection(i, new Section(s.name(), s.nameOffset(), s.type(), s.flags(), s.addr(), s.size(),
                    s.link(), s.info(), s.addralign(), s.entsize(), d));
        }
        return linked;
    }
}
