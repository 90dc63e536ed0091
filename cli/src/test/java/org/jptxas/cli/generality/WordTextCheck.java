package org.jptxas.cli.generality;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jptxas.sass.SassInstruction;
import org.jptxas.sass.SassIsa;
import org.jptxas.sass.SassPrinter;
import org.jptxas.spi.TestTargets;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Decodes the words of a file (lines: SM, 128-bit hex, nvdisasm's text; {@code -Djptxas.words=FILE}) and lists
 * those jptxas prints otherwise, or does not know: a check of forms added from ptxas's words. Run when asked.
 */
class WordTextCheck {
    @Test
    @Tag("tool")
    void wordsPrintAsNvdisasm() throws Exception {
        List<String> lines = Files.readAllLines(Path.of(System.getProperty("jptxas.words")));
        int bad = 0;
        for (String line : lines) {
            String[] f = line.split("\t");
            SassIsa isa = TestTargets.of(f[0]).isa();
            long[] w = SassIsa.hex128(f[1]);
            SassInstruction d = isa.decode(w[0], w[1]);
            String text = d instanceof SassInstruction.Known ? SassPrinter.text(d, 0, a -> ".L") : "UNKNOWN";
            String want = f[2].replaceAll("\\s+", " ").strip();
            if (!text.replaceAll("\\s+", " ").strip().equals(want)) {
                bad++;
                System.out.println("MISMATCH\t" + f[0] + "\t" + f[1] + "\t" + want + "\t" + text);
            }
        }
        System.out.println("checked " + lines.size() + ", mismatches " + bad);
        assertTrue(lines.size() > 0);
    }
}
