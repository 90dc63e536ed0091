package org.jptxas.cli.generality;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.jptxas.cli.generality.ThreeWay.Compiled;
import org.jptxas.cli.generality.ThreeWay.LegResult;
import org.jptxas.tables.ptx.PtxType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Reduced random programs that once failed (their header says the seed, what happened and where), kept under
 * {@code random/}: on every SM, jptxas's cubin must compute the interpreter's outputs in the emulator (NaNs of any
 * payload equal). A case not fixed yet says {@code // expected: mismatch on sm_XX,...: why}: there it must still
 * differ (a fix fails the test until the header says so). Fast: no ptxas.
 */
class RandomProgramRegressionTest {
    static final List<String> SMS = RandomDifferential.SMS;

    static Path dir() throws URISyntaxException {
        return Path.of(RandomProgramRegressionTest.class.getResource("random").toURI());
    }

    static Stream<String> cases() throws IOException, URISyntaxException {
        try (Stream<Path> s = Files.list(dir())) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".ptx")).sorted().toList().stream();
        }
    }

    @Test
    void thereAreRegressionCases() throws IOException, URISyntaxException {
        assertFalse(cases().toList().isEmpty(), "no reduced random programs under random/");
    }

    /** The kernel of a kept program: the standard launch of its seed, outputs of the types its header lists. */
    static FormKernels.Kernel kernel(String text) {
        long seed = Long.parseLong(header(text, "seed"));
        List<PtxType> types = new ArrayList<>();
        for (String t : header(text, "out").trim().split("\\s+")) {
            types.add(PtxType.of(t).orElseThrow());
        }
        int threads = RandomProgram.GRID * RandomProgram.BLOCK;
        byte[] out = new byte[threads * 8 * types.size()];
        java.util.Arrays.fill(out, (byte) 0xA5);
        List<FormKernels.OutField> fields = new ArrayList<>();
        for (int i = 0; i < types.size(); i++) {
            fields.add(new FormKernels.OutField("variable " + i, 8 * i, types.get(i), types.get(i).bits() / 8));
        }
        return new FormKernels.Kernel("rp", "", "", RandomProgram.GRID, RandomProgram.BLOCK,
                List.of(new FormKernels.Buffer(RandomProgram.input(seed)), new FormKernels.Buffer(out),
                        new FormKernels.Buffer(new byte[4 * RandomProgram.COUNTERS])), 1, 8 * types.size(), fields);
    }

    static String header(String text, String field) {
        for (String line : text.split("\n")) {
            if (line.startsWith("// " + field + ":")) {
                return line.substring(field.length() + 4).trim();
            }
        }
        throw new IllegalArgumentException("no '// " + field + ":' header");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void jptxasAgreesWithTheInterpreterOnEverySm(String file) throws Exception {
        String text = Files.readString(dir().resolve(file), StandardCharsets.UTF_8);
        FormKernels.Kernel k = kernel(text);
        String expected = header(text, "expected");
        List<String> mismatching = expected.startsWith("mismatch on ")
                ? List.of(expected.substring(12, expected.indexOf(':')).split(",")) : List.of();
        for (String sm : SMS) {
            String module = text.replaceFirst("\\.target sm_\\d+", ".target " + sm);
            LegResult a = ThreeWay.run(ThreeWay.interpreter(file, module), sm, k);
            assertTrue(a.completed(), sm + ": interpreter " + FormSuite.describe(a));
            Compiled c = ThreeWay.JPTXAS.compile(file, module, sm);
            assertTrue(c.ok(), sm + ": " + FormSuite.firstError(c));
            LegResult j = ThreeWay.run(ThreeWay.emulator(sm, c.cubin()), sm, k);
            String d = FormSuite.differs(null, true, k, a, j);
            if (mismatching.contains(sm)) {
                assertTrue(d != null, sm + ": listed as a mismatch but agrees now (update the header)");
                continue;
            }
            assertNull(d, sm);
            assertEquals(List.of(), j.hazards(), sm + ": hazards");
        }
    }
}
