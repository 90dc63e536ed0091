package org.jptxas.scheduler.sass;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jptxas.scheduler.control.ControlWord;
import org.jptxas.scheduler.control.ControlWordGenerator;
import org.jptxas.scheduler.hazard.Hazard;
import org.jptxas.scheduler.hazard.HazardChecker;
import org.jptxas.scheduler.latency.LatencyModel;
import org.jptxas.testing.Corpus;
import org.jptxas.testing.OracleCubins;
import org.jptxas.spi.TestTargets;

/**
 * Calibration aid: over the whole corpus (ptxas 13 cubins from the shared cache), per SM, the agreement and the
 * stall disagreements and hazards grouped by producer/consumer mnemonic, most frequent first.
 * {@code java ... CorpusCalibration sm_80 [examplesPerGroup]}.
 */
public final class CorpusCalibration {
    private static final java.util.Queue<String> DUMP = new java.util.concurrent.ConcurrentLinkedQueue<>();
    public static void main(String[] args) throws Exception {
        String sm = args[0];
        int examples = args.length > 1 ? Integer.parseInt(args[1]) : 0;
        int smNumber = Integer.parseInt(sm.substring(3));
        LatencyModel model = LatencyModel.of(TestTargets.of(sm));
        Map<String, Integer> stallGroups = new ConcurrentHashMap<>();
        Map<String, Integer> waitGroups = new ConcurrentHashMap<>();
        Map<String, Integer> hazardGroups = new ConcurrentHashMap<>();
        Map<String, List<String>> ex = new ConcurrentHashMap<>();
        List<Corpus.Entry> entries = Corpus.assumeEntries().stream().filter(Corpus.Entry::ptxasAccepts)
                .filter(e -> Integer.parseInt((e.arch().isEmpty() ? "sm_75" : e.arch()).replaceAll("\\D", "")) <= smNumber)
                .toList();
        ControlAgreement.Tally total = entries.parallelStream().map(e -> {
            OracleCubins.Compiled c = OracleCubins.ptxas13(e.file(), sm);
            if (!c.ok()) {
                return ControlAgreement.Tally.empty();
            }
            Map<String, List<SassLine>> fns;
            boolean debug;
            try {
                byte[] bytes = Files.readAllBytes(c.cubin().orElseThrow());
                fns = DecodedListing.fromCubin(bytes, TestTargets.of(sm).isa());
                debug = DecodedListing.isDebug(bytes);
            } catch (Exception x) {
                return ControlAgreement.Tally.empty();
            }
            ControlAgreement.Tally t = ControlAgreement.Tally.empty();
            for (var fn : fns.entrySet()) {
                List<SassLine> lines = fn.getValue();
                t = t.plus(ControlAgreement.compare(lines, model, smNumber < 90, debug));
                ControlAgreement.Decoded d = ControlAgreement.decode(lines, model, smNumber < 90);
                List<ControlWord> ours = debug ? new ControlWordGenerator(model).generateDebug(d.instrs())
                        : new ControlWordGenerator(model).generate(d.instrs(), d.flow());
                StringBuilder dump = new StringBuilder();
                for (int i = 0; i < lines.size(); i++) {
                    ControlWord a = ours.get(i);
                    ControlWord b = d.fileControl().get(i);
                    String here = mn(lines.get(i));
                    String next = i + 1 < lines.size() ? mn(lines.get(i + 1)) : "-";
                    dump.append(e.file().getFileName()).append('\t').append(i).append('\t').append(here).append('\t').append(next)
                            .append('\t').append(b.stall()).append('\t').append(a.stall()).append('\t').append(b.waitMask())
                            .append('\t').append(a.waitMask()).append('\t').append(lines.get(i).text().strip()).append('\t')
                            .append(i + 1 < lines.size() ? lines.get(i + 1).text().strip() : "-").append('\t').append(b.writeSb())
                            .append('\t').append(a.writeSb()).append('\n');
                    if (a.stall() != b.stall()) {
                        String key = here + " -> " + next + " ours " + a.stall() + " ptxas " + b.stall();
                        stallGroups.merge(key, 1, Integer::sum);
                        note(ex, "S " + key, examples, e.file().getFileName() + " " + fn.getKey() + " " + ctx(lines, d, ours, i));
                    }
                    if (a.waitMask() != b.waitMask()) {
                        String key = here + " ours " + Integer.toBinaryString(a.waitMask()) + " ptxas " + Integer.toBinaryString(b.waitMask());
                        waitGroups.merge(here + (a.waitMask() == 0 ? " ours none" : b.waitMask() == 0 ? " ptxas none" : " differ"), 1, Integer::sum);
                        note(ex, "W " + here + (a.waitMask() == 0 ? " ours none" : b.waitMask() == 0 ? " ptxas none" : " differ"), examples,
                                e.file().getFileName() + " " + fn.getKey() + " " + ctx(lines, d, ours, i));
                    }
                }
                DUMP.add(dump.toString());
                for (Hazard h : new HazardChecker(model).check(d.instrs(), d.fileControl(), d.flow())) {
                    if (!h.isError()) {
                        continue;
                    }
                    String key = h.kind() + " " + (h.producer() >= 0 ? mn(lines.get(h.producer())) : "?") + " -> " + mn(lines.get(h.index()));
                    hazardGroups.merge(key, 1, Integer::sum);
                    note(ex, "H " + key, examples, e.file().getFileName() + " " + fn.getKey() + " " + h + "\n"
                            + ctx(lines, d, ours, h.producer() >= 0 && h.producer() < h.index() ? h.producer() : h.index(), h.index()));
                }
            }
            return t;
        }).reduce(ControlAgreement.Tally.empty(), ControlAgreement.Tally::plus);
        System.out.println(total.report(sm));
        if (System.getenv("DUMP") != null) {
            Files.writeString(Path.of(System.getenv("DUMP")), String.join("", DUMP));
        }
        print("stall disagreements", stallGroups, ex, "S ", 60);
        print("wait disagreements", waitGroups, ex, "W ", 30);
        print("hazards", hazardGroups, ex, "H ", 60);
    }

    private static void note(Map<String, List<String>> ex, String key, int max, String text) {
        if (max <= 0) {
            return;
        }
        List<String> l = ex.computeIfAbsent(key, k -> java.util.Collections.synchronizedList(new ArrayList<>()));
        if (l.size() < max) {
            l.add(text);
        }
    }

    private static void print(String title, Map<String, Integer> groups, Map<String, List<String>> ex, String prefix, int top) {
        System.out.println("== " + title + " (" + groups.values().stream().mapToInt(Integer::intValue).sum() + ")");
        groups.entrySet().stream().sorted((a, b) -> b.getValue() - a.getValue()).limit(top).forEach(e -> {
            System.out.println(String.format("%6d  %s", e.getValue(), e.getKey()));
            for (String s : ex.getOrDefault(prefix + e.getKey(), List.of())) {
                System.out.println("        " + s.replace("\n", "\n        "));
            }
        });
    }

    private static String mn(SassLine l) {
        String t = l.text().strip();
        if (t.startsWith("@")) {
            t = t.substring(t.indexOf(' ') + 1).strip();
        }
        String m = t.split("[ ;]", 2)[0];
        return m;
    }

    private static String ctx(List<SassLine> lines, ControlAgreement.Decoded d, List<ControlWord> ours, int at) {
        return ctx(lines, d, ours, at, at + 1);
    }

    private static String ctx(List<SassLine> lines, ControlAgreement.Decoded d, List<ControlWord> ours, int from, int to) {
        StringBuilder sb = new StringBuilder("\n");
        int a = Math.max(0, from - 3);
        int b = Math.min(lines.size() - 1, Math.max(to, from + 1));
        if (b - a > 14) {
            a = b - 14;
        }
        for (int i = a; i <= b; i++) {
            sb.append(String.format("   %s%04x %-56.56s | %-26s | %s%n", i == from || i == to ? ">" : " ", lines.get(i).address(),
                    lines.get(i).text(), d.fileControl().get(i), ours.get(i)));
        }
        return sb.toString();
    }
}
