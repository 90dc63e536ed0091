package org.jptxas.scheduler.sass;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.Processes;

/** ptxas output as text: {@code nvdisasm -hex -c} of a cubin, parsed per function. */
final class OracleListings {
    private OracleListings() {}

    static Map<String, List<SassLine>> of(Path cubin) {
        Path nvdisasm = Oracles.assumeNvdisasm();
        Processes.Result r = Processes.run(List.of(nvdisasm.toString(), "-hex", "-c", cubin.toString()), Path.of("."), Map.of(), 300);
        if (r.exitCode() != 0) {
            throw new IllegalStateException("nvdisasm failed on " + cubin + ": " + r.stderr());
        }
        return NvdisasmListing.parse(r.stdout());
    }
}
