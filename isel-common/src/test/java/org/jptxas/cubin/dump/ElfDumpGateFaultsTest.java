package org.jptxas.cubin.dump;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import org.jptxas.cubin.CorpusCubin;
import org.jptxas.cubin.Cubin;
import org.jptxas.cubin.Fixtures;
import org.jptxas.isel.gates.Planted;
import org.jptxas.testing.OracleCubins;
import org.jptxas.testing.Processes;
import org.jptxas.testing.gate.Gate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Planted faults for {@link ElfDumpCorpusTest}'s gate, on two fixture cubins with a stand-in cuobjdump that prints
 * what the correct dumper prints: each fault must fail the gate.
 */
class ElfDumpGateFaultsTest {
    @TempDir
    Path dir;

    private final List<CorpusCubin> jobs = List.of(Planted.job("a.ptx", "sm_75", false), Planted.job("b.ptx", "sm_90", true));

    private OracleCubins.Compiled fixture(CorpusCubin job) {
        String name = job.relocatable() ? "fixture_sm_90_c.cubin" : "fixture_sm_75.cubin";
        return Planted.compiled(dir, name, Fixtures.bytes(name));
    }

    /** cuobjdump's stand-in: the correct dump of the file. */
    private static Processes.Result cuobjdump(Path cubin) {
        try {
            return new Processes.Result(0, ElfDump.print(Cubin.read(Files.readAllBytes(cubin))), "");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static final Function<byte[], String> DUMPER = b -> ElfDump.print(Cubin.read(b));

    private Gate run(List<CorpusCubin> jobs, Function<CorpusCubin, OracleCubins.Compiled> compile,
                     Function<Path, Processes.Result> oracle, Function<byte[], String> dumper) {
        return ElfDumpCorpusTest.compare(jobs, compile, oracle, dumper);
    }

    @Test
    void theControlPasses() {
        Gate g = run(jobs, this::fixture, ElfDumpGateFaultsTest::cuobjdump, DUMPER);
        assertTrue(g.passes(2), g.summary());
    }

    @Test
    void anEmptyCorpusFailsTheMinimum() {
        assertFalse(run(List.of(), this::fixture, ElfDumpGateFaultsTest::cuobjdump, DUMPER).passes(2));
    }

    @Test
    void aFlippedBitInTheCubinIsADifference() {
        // Our dumper reads a cubin whose first section header's sh_flags has a bit flipped; cuobjdump the original.
        Gate g = run(jobs, this::fixture, ElfDumpGateFaultsTest::cuobjdump, b -> {
            long shoff = java.nio.ByteBuffer.wrap(b).order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong(40);
            int at = (int) shoff + 64 + 8; // sh_flags of section 1
            return DUMPER.apply(Planted.flip(b, at, 1));
        });
        assertEquals(2, g.differences().size(), g.summary());
        assertFalse(g.passes(2));
    }

    @Test
    void aThrowingDumperIsACrash() {
        Gate g = run(jobs, this::fixture, ElfDumpGateFaultsTest::cuobjdump, b -> {
            throw new IllegalStateException("planted");
        });
        assertEquals(2, g.crashes().size());
        assertFalse(g.passes(1));
    }

    @Test
    void aFailingCuobjdumpIsAnOracleFailure() {
        Gate g = run(jobs, this::fixture, p -> new Processes.Result(1, "", "cuobjdump fatal"), DUMPER);
        assertEquals(2, g.oracleFailures().size());
        assertFalse(g.passes(1));
    }

    @Test
    void ptxasFailingOtherwiseThanByRefusalIsAnOracleFailure() {
        Gate g = run(jobs, j -> Planted.failed("ptxas fatal   : Segmentation fault"), ElfDumpGateFaultsTest::cuobjdump,
                DUMPER);
        assertEquals(2, g.oracleFailures().size());
        Gate refused = run(jobs, j -> Planted.failed("ptxas fatal   : 'Compile only(-c)' requires ABI"),
                ElfDumpGateFaultsTest::cuobjdump, DUMPER);
        assertEquals(0, refused.oracleFailures().size());
        assertFalse(refused.passes(1), "a refused cubin is not compared");
    }
}
