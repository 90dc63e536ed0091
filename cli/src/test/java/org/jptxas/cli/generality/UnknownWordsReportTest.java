package org.jptxas.cli.generality;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ForkJoinPool;
import org.jptxas.cli.generality.FormKernels.Kernel;
import org.jptxas.cli.generality.ThreeWay.Compiled;
import org.jptxas.cli.generality.ThreeWay.Compiler;
import org.jptxas.cubin.Cubin;
import org.jptxas.cubin.Section;
import org.jptxas.sass.SassInstruction;
import org.jptxas.sass.SassIsa;
import org.jptxas.sass.oracle.RawOracle;
import org.jptxas.spi.TestTargets;
import org.jptxas.testing.Oracles;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Which words of ptxas 13's code jptxas's SASS decoder cannot read, and how many instruction-form cases and random
 * programs each blocks (the emulator stops at such a word, so the case cannot agree three ways). Per SM the unknown
 * words are grouped by dispatch key and nvdisasm 12.5's operand skeleton (registers, predicates and numbers blanked),
 * ranked by the cases containing one, each with example words and nvdisasm's text: the list of forms the tables lack,
 * most useful first. Writes {@code cli/target/reports/unknown-words.txt}. A tool, not a check (tagged 'tool', run
 * with {@code -DexcludedTestGroups=none -Dtest=UnknownWordsReportTest}); {@code -Djptxas.unknown.sms=sm_80,sm_90}
 * narrows the SMs, {@code -Djptxas.unknown.random=N} the random programs (seeds 1 ... N; 0 leaves them out).
 */
class UnknownWordsReportTest {
    /** Example words kept per group. */
    static final int EXAMPLES = 4;

    /** One group of unknown words: the cases containing one, and example words (lo, hi). */
    static final class Group {
        final TreeSet<String> cases = new TreeSet<>();
        final Map<String, long[]> examples = new LinkedHashMap<>();
    }

    @Test
    @Tag("tool")
    void reportUnknownWords() throws IOException {
        Path ptxasPath = Oracles.assumePtxas13();
        Compiler ptxas = ThreeWay.ptxas(ptxasPath, Files.createTempDirectory("unknown-words"));
        List<String> sms = List.of(System.getProperty("jptxas.unknown.sms", String.join(",",
                InstructionFormSuiteTest.SMS)).split(","));
        int randoms = Integer.getInteger("jptxas.unknown.random", RandomProgramDifferentialTest.CI_PROGRAMS);
        StringBuilder out = new StringBuilder("Unknown words in ptxas 13's code (UnknownWordsReportTest)\n");
        List<FormCase> cases = InstructionFormSuiteTest.cases();
        for (String sm : sms) {
            SassIsa isa = TestTargets.of(sm).isa();
            Map<String, Group> groups = Collections.synchronizedMap(new TreeMap<>());
            Kernel[] kernels = new Kernel[cases.size()];
            List<Integer> rendered = FormKernels.renderAll(cases, kernels, false);
            List<Integer> blocked = Collections.synchronizedList(new ArrayList<>());
            ForkJoinPool pool = new ForkJoinPool(2);
            try {
                pool.submit(() -> FormSuite.chunks(rendered, FormSuite.MODULE).parallelStream().forEach(chunk -> {
                    List<Integer> ids = FormSuite.frontEnd(sm, chunk, kernels);
                    if (ids.isEmpty()) {
                        return;
                    }
                    List<Kernel> ks = ids.stream().map(i -> kernels[i]).toList();
                    Compiled[] each = FormSuite.compileEach(ptxas, sm, ks);
                    for (int j = 0; j < ids.size(); j++) {
                        String name = ks.get(j).name();
                        String what = cases.get(ids.get(j)).key();
                        if (collect(isa, each[j], ".text." + name, what, groups)) {
                            blocked.add(ids.get(j));
                        }
                    }
                })).join();
                if (randoms > 0 && RandomDifferential.SMS.contains(sm)) {
                    pool.submit(() -> java.util.stream.LongStream.rangeClosed(1, randoms).parallel()
                            .filter(s -> RandomDifferential.smOf(s).equals(sm)).forEach(s -> {
                                String text = RandomProgram.module(RandomProgram.generate(s, sm), sm);
                                collect(isa, ptxas.compile("rp.ptx", text, sm), null, "seed " + s, groups);
                            })).join();
                }
            } finally {
                pool.shutdown();
            }
            out.append(render(sm, groups, blocked.size()));
            System.out.println(sm + ": " + blocked.size() + " form cases with unknown words, " + groups.size()
                    + " groups");
        }
        Path dir = Files.createDirectories(Path.of("target", "reports"));
        Files.writeString(dir.resolve("unknown-words.txt"), out.toString(), StandardCharsets.UTF_8);
    }

    /**
     * Adds the unknown words of a cubin's code (of the section {@code section} only, if not null) to their groups
     * under {@code what}; whether there was one.
     */
    static boolean collect(SassIsa isa, Compiled c, String section, String what, Map<String, Group> groups) {
        if (!c.ok()) {
            return false;
        }
        boolean any = false;
        for (Section s : Cubin.read(c.cubin()).textSections()) {
            if (section != null && !s.name().equals(section)) {
                continue;
            }
            byte[] code = s.data();
            List<SassInstruction> insns = isa.decodeAllForExecution(code, 0, code.length - code.length % 16);
            for (int i = 0; i < insns.size(); i++) {
                if (insns.get(i) instanceof SassInstruction.Unknown) {
                    long lo = le64(code, 16 * i), hi = le64(code, 16 * i + 8);
                    // the control bits [127:105] and reuse flags do not select a form
                    long hiForm = hi & ((1L << (105 - 64)) - 1);
                    String word = SassIsa.hex128(lo, hiForm);
                    int key = (int) (lo & 0xfff) | (int) ((hi >>> 27) & 1) << 12;
                    synchronized (groups) {
                        Group g = groups.computeIfAbsent(String.format("%04x", key), k -> new Group());
                        g.cases.add(what);
                        if (g.examples.size() < 64) {
                            g.examples.putIfAbsent(word, new long[] {lo, hi});
                        }
                    }
                    any = true;
                }
            }
        }
        return any;
    }

    /** One SM's groups, regrouped by nvdisasm's skeleton of their example words, most cases first. */
    static String render(String sm, Map<String, Group> byKey, int blocked) {
        List<long[]> words = new ArrayList<>();
        List<String> keyOf = new ArrayList<>();
        byKey.forEach((k, g) -> g.examples.values().forEach(w -> {
            words.add(w);
            keyOf.add(k);
        }));
        RawOracle.Read[] reads = RawOracle.read(words, sm);
        // per key: skeleton -> example texts; the key's cases are shown once per key
        Map<String, Map<String, List<String>>> skeletons = new TreeMap<>();
        for (int i = 0; i < words.size(); i++) {
            String text = reads[i] == null ? "(nvdisasm refuses)" : reads[i].text().replaceAll("\\s*;\\s*$", "")
                    .replaceAll("\\s+", " ").strip();
            String sk = text.replaceAll("\\bU?R[0-9]+\\b|\\bU?RZ\\b", "R").replaceAll("\\bU?P[0-9]\\b|\\bU?PT\\b", "P")
                    .replaceAll("-?0x[0-9a-f]+|\\b[0-9]+(\\.[0-9]+)?(e[+-]?[0-9]+)?\\b", "#");
            List<String> ex = skeletons.computeIfAbsent(keyOf.get(i), k -> new TreeMap<>())
                    .computeIfAbsent(sk, k -> new ArrayList<>());
            if (ex.size() < EXAMPLES) {
                long[] w = words.get(i);
                ex.add(SassIsa.hex128(w[0], w[1]) + "  " + text);
            }
        }
        List<Map.Entry<String, Group>> ranked = new ArrayList<>(byKey.entrySet());
        ranked.sort((a, b) -> b.getValue().cases.size() - a.getValue().cases.size());
        StringBuilder sb = new StringBuilder(String.format("%n=== %s: %d form cases hold an unknown word; %d keys%n",
                sm, blocked, byKey.size()));
        for (Map.Entry<String, Group> e : ranked) {
            Group g = e.getValue();
            long seeds = g.cases.stream().filter(c -> c.startsWith("seed ")).count();
            sb.append(String.format("%n-- key 0x%s: %d cases (%d random programs), e.g. %s%n", e.getKey(),
                    g.cases.size() - seeds, seeds, g.cases.first()));
            skeletons.getOrDefault(e.getKey(), Map.of()).forEach((sk, ex) -> {
                sb.append("   ").append(sk).append('\n');
                ex.forEach(x -> sb.append("      ").append(x).append('\n'));
            });
        }
        return sb.toString();
    }

    private static long le64(byte[] b, int at) {
        long v = 0;
        for (int i = 7; i >= 0; i--) {
            v = v << 8 | (b[at + i] & 0xff);
        }
        return v;
    }
}
