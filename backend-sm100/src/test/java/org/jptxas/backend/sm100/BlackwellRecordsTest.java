package org.jptxas.backend.sm100;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jptxas.ori.target.Target;
import org.jptxas.sass.Control;
import org.jptxas.sass.SassAssembler;
import org.jptxas.sass.SassInstruction;
import org.jptxas.sass.SassIsa;
import org.jptxas.sass.SassPrinter;
import org.jptxas.spi.BackendRegistry;
import org.jptxas.testing.RepoRoot;
import org.junit.jupiter.api.Test;

/**
 * The Blackwell tables against NVIDIA's own reading of Blackwell words: the records of
 * {@code ../shared/oracle-data/sass-records/sm_{100,110,120}.tsv} (a word and the text cuobjdump 12.8+ printed for
 * it). Each word must decode to its text (blanks collapsed; a branch target printed as a label matches any address)
 * and assemble back to its bits. The words that do not yet are pinned per file, opcode and outcome in
 * {@code blackwell-records-gaps.tsv}: a group may only shrink, and one that shrank must be lowered there. Skips when
 * the records are absent (they are not part of the repository, nor installed by CI).
 */
class BlackwellRecordsTest {
    private static final List<String> FILES = List.of("sm_100", "sm_110", "sm_120");
    private static final String GAPS = "blackwell-records-gaps.tsv";
    private static final Pattern LABEL = Pattern.compile("`\\([^)]*\\)");
    private static final Pattern TRAILING_ADDRESS = Pattern.compile("-?0x[0-9a-f]+$");

    private record Outcome(String file, String opcode, String kind) implements Comparable<Outcome> {
        @Override
        public int compareTo(Outcome o) {
            return toString().compareTo(o.toString());
        }

        @Override
        public String toString() {
            return file + "\t" + opcode + "\t" + kind;
        }
    }

    @Test
    void recordsDecodeToTheirTextAndAssembleToTheirBits() throws IOException {
        Optional<Path> dir = RepoRoot.find().map(r -> r.resolveSibling("shared").resolve("oracle-data")
                .resolve("sass-records")).filter(Files::isDirectory);
        org.jptxas.testing.Prerequisites.require(dir.isPresent(), "../shared/oracle-data/sass-records");
        BackendRegistry registry = BackendRegistry.discover(getClass().getClassLoader());
        Map<Outcome, Integer> gaps = new TreeMap<>();
        int words = 0;
        int exact = 0;
        for (String file : FILES) {
            SassIsa isa = registry.describe(Target.of(file)).orElseThrow().isa();
            SassAssembler asm = new SassAssembler(isa);
            for (String line : Files.readAllLines(dir.get().resolve(file + ".tsv"), StandardCharsets.UTF_8)) {
                if (line.startsWith("#") || line.isBlank()) {
                    continue;
                }
                String[] f = line.split("\t");
                long address = Long.decode(f[0]);
                long hi = Long.parseUnsignedLong(f[1].substring(0, 16), 16);
                long lo = Long.parseUnsignedLong(f[1].substring(16), 16);
                String expected = normalize(f[2]);
                words++;
                String kind = outcome(isa, asm, lo, hi, address, expected);
                if (kind == null) {
                    exact++;
                } else {
                    gaps.merge(new Outcome(file, opcode(expected), kind), 1, Integer::sum);
                }
            }
        }
        // the current figures beside the build's output, to copy over the pinned file when groups shrink
        StringBuilder current = new StringBuilder("# file\topcode\toutcome\trecords (" + exact + " of " + words
                + " exact)\n");
        gaps.forEach((k, v) -> current.append(k).append('\t').append(v).append('\n'));
        Files.createDirectories(Path.of("target"));
        Files.writeString(Path.of("target", GAPS), current);
        Map<Outcome, Integer> pinned = pinned();
        List<String> worse = new ArrayList<>();
        List<String> better = new ArrayList<>();
        for (Map.Entry<Outcome, Integer> e : gaps.entrySet()) {
            int was = pinned.getOrDefault(e.getKey(), 0);
            if (e.getValue() > was) {
                worse.add(e.getKey() + "\t" + e.getValue() + " (pinned " + was + ")");
            }
        }
        for (Map.Entry<Outcome, Integer> e : pinned.entrySet()) {
            int now = gaps.getOrDefault(e.getKey(), 0);
            if (now < e.getValue()) {
                better.add(e.getKey() + "\t" + now + " (pinned " + e.getValue() + ")");
            }
        }
        String summary = exact + " of " + words + " records exact";
        assertTrue(worse.isEmpty(), summary + "; more records than pinned fail:\n" + String.join("\n", worse));
        assertTrue(better.isEmpty(), summary + "; fewer records fail than pinned, lower these lines of " + GAPS
                + " (target/" + GAPS + " has the current figures):\n" + String.join("\n", better));
    }

    /** Null when the word reads as its text and assembles back to itself; else what went wrong. */
    private static String outcome(SassIsa isa, SassAssembler asm, long lo, long hi, long address, String expected) {
        SassInstruction inst = isa.decode(lo, hi);
        if (inst instanceof SassInstruction.Unknown) {
            return "unknown";
        }
        String text = SassPrinter.text(inst, address, null);
        if (!sameText(expected, text)) {
            return "differs";
        }
        try {
            long[] again = asm.assembleListing(text, Control.fromHi(hi), address, null);
            return again[0] == lo && again[1] == hi ? null : "reassembles-differently";
        } catch (RuntimeException e) {
            return "does-not-reassemble";
        }
    }

    /** As printed: a label stands for any branch target (the records name labels, the raw decoder addresses). */
    private static boolean sameText(String expected, String text) {
        if (expected.equals(text)) {
            return true;
        }
        Matcher m = LABEL.matcher(expected);
        return m.find() && m.replaceAll("TARGET").equals(TRAILING_ADDRESS.matcher(text).replaceAll("TARGET"));
    }

    static String normalize(String text) {
        String t = text.strip().replaceAll("\\s+", " ");
        return t.endsWith(";") ? t.substring(0, t.length() - 1).strip() : t;
    }

    /** The opcode of a record's text: its first word after the guard, without modifiers. */
    static String opcode(String text) {
        String[] w = text.split(" ");
        String op = w[0].startsWith("@") && w.length > 1 ? w[1] : w[0];
        int dot = op.indexOf('.');
        return dot < 0 ? op : op.substring(0, dot);
    }

    private Map<Outcome, Integer> pinned() throws IOException {
        Map<Outcome, Integer> out = new TreeMap<>();
        try (InputStream in = getClass().getResourceAsStream(GAPS)) {
            if (in == null) {
                return out;
            }
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (line.startsWith("#") || line.isBlank()) {
                    continue;
                }
                String[] f = line.split("\t");
                out.put(new Outcome(f[0], f[1], f[2]), Integer.parseInt(f[3]));
            }
        }
        return out;
    }
}
