package org.jptxas.sass;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jptxas.cubin.Fixtures;
import org.jptxas.isel.gates.Planted;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.gate.Gate;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Planted faults for the SASS gates' core ({@link SassOracleGate}: {@link SassDifferentialTest},
 * {@link SassHeldOutTest}) on the sm_80 fixture cubin and nvdisasm 12.5's real listing of it: a decoder or assembler
 * with one wrong encoding bit, a throwing decoder, failing oracles, an empty corpus and a stale exception must each
 * fail the gate; the unplanted control passes.
 */
class SassGateFaultsTest {
    @TempDir
    Path dir;

    private List<SassOracleGate.Job> jobs;

    @BeforeEach
    void fixtureJob() {
        Oracles.assumeNvdisasm();
        byte[] bytes = Fixtures.bytes("fixture_sm_80.cubin");
        jobs = List.of(new SassOracleGate.Job("fixture sm_80", Path.of("fixture.ptx"), "sm_80",
                () -> Planted.compiled(dir, "fixture_sm_80.cubin", bytes)));
    }

    private static final SassOracleGate.Codec REAL = SassOracleGate.Codec.of("sm_80");

    private Gate run(List<SassOracleGate.Job> jobs, SassOracleGate.Codec codec, Map<String, String> known,
                     SassOracleGate.UnknownIs unknownIs) {
        Gate gate = Gate.withKnown("planted", known);
        SassOracleGate.check(jobs, gate, SassOracleGate.NVDISASM, List.of(), codec, true, unknownIs);
        return gate;
    }

    /** The real codec with {@code lo}'s bit {@code bit} flipped on the way in (decode) or out (assemble). */
    private static SassOracleGate.Codec flipped(boolean inDecoder, int bit) {
        return new SassOracleGate.Codec() {
            @Override
            public SassInstruction decode(long lo, long hi) {
                return REAL.decode(inDecoder ? lo ^ (1L << bit) : lo, hi);
            }

            @Override
            public long[] assemble(String text, Control control, long address, LabelResolver labels) {
                long[] w = REAL.assemble(text, control, address, labels);
                return inDecoder ? w : new long[] {w[0] ^ (1L << bit), w[1]};
            }
        };
    }

    @Test
    void theControlPasses() {
        Gate g = run(jobs, REAL, Map.of(), SassOracleGate.UnknownIs.DIFFERENCE);
        assertTrue(g.passes(50), g.summary());
    }

    @Test
    void aDecoderWithOneWrongEncodingBitFails() {
        Gate g = run(jobs, flipped(true, 16), Map.of(), SassOracleGate.UnknownIs.DIFFERENCE); // bit 16: Rd
        assertFalse(g.differences().isEmpty(), g.summary());
        assertFalse(g.passes(1));
    }

    @Test
    void anAssemblerWithOneWrongEncodingBitFails() {
        Gate g = run(jobs, flipped(false, 24), Map.of(), SassOracleGate.UnknownIs.DIFFERENCE); // bit 24: Ra
        assertFalse(g.differences().isEmpty(), g.summary());
        assertFalse(g.passes(1));
    }

    @Test
    void aThrowingDecoderIsACrash() {
        Gate g = run(jobs, new SassOracleGate.Codec() {
            @Override
            public SassInstruction decode(long lo, long hi) {
                throw new IllegalStateException("planted");
            }

            @Override
            public long[] assemble(String text, Control control, long address, LabelResolver labels) {
                return REAL.assemble(text, control, address, labels);
            }
        }, Map.of(), SassOracleGate.UnknownIs.DIFFERENCE);
        assertFalse(g.crashes().isEmpty());
        assertFalse(g.passes(1));
    }

    @Test
    void unknownDecodesFailOnLearnedOutputAndAreCountedOnHeldOut() {
        SassOracleGate.Codec unknown = new SassOracleGate.Codec() {
            @Override
            public SassInstruction decode(long lo, long hi) {
                return new SassInstruction.Unknown(lo, hi);
            }

            @Override
            public long[] assemble(String text, Control control, long address, LabelResolver labels) {
                return REAL.assemble(text, control, address, labels);
            }
        };
        assertFalse(run(jobs, unknown, Map.of(), SassOracleGate.UnknownIs.DIFFERENCE).passes(1));
        Gate heldOut = Gate.named("planted held-out");
        SassOracleGate.Counts n = SassOracleGate.check(jobs, heldOut, SassOracleGate.NVDISASM, List.of(), unknown, false,
                SassOracleGate.UnknownIs.COUNTED);
        assertEquals(n.instructions().get() - n.relocated().get(), n.unknown().get());
        assertEquals(0, n.exactText().get(), "the score falls to 0 %");
    }

    @Test
    void anEmptyCorpusFailsTheMinimum() {
        assertFalse(run(List.of(), REAL, Map.of(), SassOracleGate.UnknownIs.DIFFERENCE).passes(1));
    }

    @Test
    void failingOraclesAreOracleFailures() {
        List<SassOracleGate.Job> failing = List.of(new SassOracleGate.Job("x sm_80", Path.of("x.ptx"), "sm_80",
                () -> Planted.failed("ptxas fatal   : Memory allocation failure")));
        Gate ptxas = run(failing, REAL, Map.of(), SassOracleGate.UnknownIs.DIFFERENCE);
        assertEquals(1, ptxas.oracleFailures().size());
        Gate nvdisasm = Gate.named("planted");
        SassOracleGate.check(jobs, nvdisasm, p -> {
            throw new IllegalStateException("nvdisasm fatal");
        }, List.of(), REAL, true, SassOracleGate.UnknownIs.DIFFERENCE);
        assertEquals(1, nvdisasm.oracleFailures().size());
        assertFalse(nvdisasm.passes(1));
    }

    @Test
    void aStaleExceptionFails() {
        Gate g = run(jobs, REAL, Map.of("relocation-dependent text: FOO", "planted"), SassOracleGate.UnknownIs.DIFFERENCE);
        assertEquals(1, g.stale().size());
        assertFalse(g.passes(1));
    }
}
