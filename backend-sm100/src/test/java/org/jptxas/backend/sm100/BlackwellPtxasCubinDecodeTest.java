package org.jptxas.backend.sm100;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jptxas.ori.target.Target;
import org.jptxas.sass.SassIsa;
import org.jptxas.scheduler.sass.DecodedListing;
import org.jptxas.scheduler.sass.SassLine;
import org.jptxas.spi.BackendRegistry;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.Prerequisites;
import org.jptxas.testing.Processes;
import org.jptxas.testing.RepoRoot;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * ptxas 13's Blackwell cubin of {@code examples/saxpy.ptx} decodes with the Blackwell tables, every instruction known
 * (its three LDCUs included).
 */
class BlackwellPtxasCubinDecodeTest {
    @ParameterizedTest
    @ValueSource(strings = {"sm_100", "sm_120"})
    void saxpyDecodesWithNoUnknownWord(String sm, @TempDir Path tmp) throws Exception {
        Prerequisites.require(Oracles.ptxas13().isPresent(), "ptxas 13");
        Path saxpy = RepoRoot.find().orElseThrow().resolve("examples").resolve("saxpy.ptx");
        Path cubin = tmp.resolve("saxpy.cubin");
        Processes.Result r = Processes.run(List.of(Oracles.ptxas13().get().toString(), "-arch=" + sm,
                saxpy.toString(), "-o", cubin.toString()), tmp);
        assertEquals(0, r.exitCode(), r.stderr());
        SassIsa isa = BackendRegistry.discover(getClass().getClassLoader()).describe(Target.of(sm)).orElseThrow().isa();
        Map<String, List<SassLine>> functions = DecodedListing.fromCubin(Files.readAllBytes(cubin), isa);
        assertFalse(functions.isEmpty());
        List<String> unknown = new ArrayList<>();
        int ldcu = 0;
        for (List<SassLine> lines : functions.values()) {
            for (SassLine l : lines) {
                if (l.text().contains("UNKNOWN")) {
                    unknown.add(l.address() + ": " + l.text());
                }
                ldcu += l.text().startsWith("LDCU") ? 1 : 0;
            }
        }
        assertEquals(List.of(), unknown);
        assertEquals(3, ldcu, "saxpy reads its parameters and the memory descriptor through three LDCUs");
    }
}
