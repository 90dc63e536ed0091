package org.jptxas.simulator.ptx;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.jptxas.testing.Corpus;
import org.junit.jupiter.api.Test;

/**
 * Every PTX file of the shared corpus that ptxas accepts loads into the interpreter without an internal error:
 * either it compiles (instructions the interpreter lacks become run-time "unimplemented" stops) or it is refused with
 * a message naming the file and line.
 */
class PtxProgramCorpusTest {
    @Test
    void everyAcceptedCorpusFileLoadsOrIsRefusedByName() throws Exception {
        List<Corpus.Entry> entries = Corpus.assumeEntries();
        List<String> crashes = new ArrayList<>();
        int loaded = 0, refused = 0;
        for (Corpus.Entry e : entries) {
            if (!e.ptxasAccepts() || !Files.isRegularFile(e.file())) {
                continue;
            }
            String name = e.file().getFileName().toString();
            try {
                PtxProgram p = PtxProgram.load(name, Files.readString(e.file()));
                p.entries();
                loaded++;
            } catch (ProgramException pe) {
                refused++;
                System.out.println("  refused: " + pe.getMessage().lines().findFirst().orElse(""));
                if (!pe.getMessage().contains(name)) {
                    crashes.add(name + ": message does not name the file: " + pe.getMessage());
                }
            } catch (RuntimeException re) {
                crashes.add(name + ": " + re);
            }
        }
        System.out.println("interpreter corpus load: " + loaded + " loaded, " + refused + " refused by name");
        assertTrue(crashes.isEmpty(), String.join("\n", crashes));
        assertTrue(loaded > 0);
    }
}
