package org.jptxas.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jptxas.cubin.CorpusCubin;
import org.jptxas.sass.SassInstruction;
import org.jptxas.sass.SassIsa;
import org.jptxas.sass.SassPrinter;
import org.jptxas.spi.TestTargets;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.Processes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Every word of ptxas 13's corpus cubins (sm_75 ... sm_90, executable and {@code -c}) that jnvdisasm's decoder does
 * not know or prints otherwise than nvdisasm 12.5's raw mode: {@code target/reports/corpus-unknown-words.tsv}
 * (unknown or our text, SM, word, words of the cubins, nvdisasm's text), so the forms ToolDropInTest's UNKNOWN sections need can be read off at once
 * instead of one per section. A generator, run when asked
 * ({@code -DexcludedTestGroups=none -Dtest=CorpusUnknownWordsCensus}).
 */
class CorpusUnknownWordsCensus {
    private static final List<String> SMS = List.of("sm_75", "sm_80", "sm_86", "sm_89", "sm_90");

    @Test
    @Tag("tool")
    void listUnknownWords() throws IOException {
        Path nvdisasm = Oracles.assumeNvdisasm();
        Map<String, Map<String, Integer>> words = new TreeMap<>();
        int cubins = 0;
        for (CorpusCubin c : CorpusCubin.all()) {
            if (!SMS.contains(c.arch())) {
                continue;
            }
            var compiled = c.compile();
            if (!compiled.ok()) {
                continue;
            }
            cubins++;
            for (TextWords.Word w : TextWords.of(Files.readAllBytes(compiled.cubin().get()))) {
                words.computeIfAbsent(c.arch(), k -> new TreeMap<>()).merge(SassIsa.hex128(w.lo(), w.hi()), 1,
                        Integer::sum);
            }
        }
        StringBuilder sb = new StringBuilder();
        Path dir = Files.createTempDirectory("census");
        for (var sm : words.entrySet()) {
            List<String> list = new ArrayList<>(sm.getValue().keySet());
            ByteBuffer raw = ByteBuffer.allocate(16 * list.size()).order(ByteOrder.LITTLE_ENDIAN);
            for (String w : list) {
                long[] lh = SassIsa.hex128(w);
                raw.putLong(lh[0]).putLong(lh[1]);
            }
            Path file = dir.resolve(sm.getKey() + ".bin");
            Files.write(file, raw.array());
            String arch = "SM" + sm.getKey().substring(3);
            Processes.Result r = Processes.run(List.of(nvdisasm.toString(), "-b", arch, file.toString()), dir);
            Map<Integer, String> text = new TreeMap<>();
            for (String line : r.stdout().split("\n")) {
                var m = java.util.regex.Pattern.compile("/\\*([0-9a-f]{4,})\\*/\\s+(.*?)\\s*;").matcher(line);
                if (m.find()) {
                    text.put(Integer.parseInt(m.group(1), 16) / 16, m.group(2).strip());
                }
            }
            SassIsa isa = TestTargets.of(sm.getKey()).isa();
            for (int i = 0; i < list.size(); i++) {
                long[] lh = SassIsa.hex128(list.get(i));
                SassInstruction d = isa.decode(lh[0], lh[1]);
                String mine = d instanceof SassInstruction.Known ? SassPrinter.text(d, 16L * i, null) : "UNKNOWN";
                if (mine.equals(text.getOrDefault(i, "?"))) {
                    continue;
                }
                sb.append(mine.equals("UNKNOWN") ? "unknown" : "misprint: " + mine).append('\t').append(sm.getKey()).append('\t').append(list.get(i)).append('\t')
                        .append(sm.getValue().get(list.get(i))).append('\t').append(text.getOrDefault(i, "?"))
                        .append('\n');
            }
        }
        Path out = Files.createDirectories(Path.of("target", "reports")).resolve("corpus-unknown-words.tsv");
        Files.writeString(out, sb.toString(), StandardCharsets.UTF_8);
        System.out.println("census: " + cubins + " cubins, unknown words in " + out.toAbsolutePath());
        assertTrue(cubins > 0);
    }
}
