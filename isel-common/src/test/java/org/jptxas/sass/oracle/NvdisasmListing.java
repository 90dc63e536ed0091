package org.jptxas.sass.oracle;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** nvdisasm {@code -hex} output parsed into sections of (address, text, 128-bit word) with the label addresses. */
public record NvdisasmListing(List<Section> sections) {
    /**
     * One disassembled instruction; {@code text} is whitespace-normalized, without the trailing {@code " ;"} and
     * without nvdisasm's metadata annotation ({@code (*"BRANCH_TARGETS .L_x_6,..."*)}, from the cubin's
     * .nv.info), which is in {@code annotation} ("" if none).
     */
    public record Line(long address, String text, long lo, long hi, String annotation) {}

    public record Section(String name, List<Line> lines, Map<String, Long> labels) {}

    public static NvdisasmListing parse(String output) {
        List<Section> sections = new ArrayList<>();
        String name = "<raw>";
        List<Line> lines = new ArrayList<>();
        Map<String, Long> labels = new LinkedHashMap<>();
        List<String> pending = new ArrayList<>();
        String[] all = output.split("\n", -1);
        for (int i = 0; i < all.length; i++) {
            String t = all[i].strip();
            if (t.startsWith(".section\t") || t.startsWith(".section ")) {
                if (!lines.isEmpty() || !pending.isEmpty()) {
                    finish(sections, name, lines, labels, pending);
                    lines = new ArrayList<>();
                    labels = new LinkedHashMap<>();
                    pending = new ArrayList<>();
                }
                String rest = t.substring(".section".length()).strip();
                int comma = rest.indexOf(',');
                name = comma < 0 ? rest : rest.substring(0, comma);
            } else if (t.startsWith("/*") && t.contains("/* 0x") && t.indexOf("*/") < t.indexOf("/* 0x")) {
                int close = t.indexOf("*/");
                long addr = Long.parseLong(t.substring(2, close), 16);
                int enc = t.indexOf("/* 0x");
                String text = t.substring(close + 2, enc).strip();
                if (text.endsWith(";")) {
                    text = text.substring(0, text.length() - 1).strip();
                }
                long lo = Long.parseUnsignedLong(t.substring(enc + 5, enc + 21), 16);
                String next = all[i + 1].strip();
                long hi = Long.parseUnsignedLong(next.substring(5, 21), 16);
                i++;
                for (String l : pending) {
                    labels.put(l, addr);
                }
                pending.clear();
                String annotation = "";
                int ann = text.indexOf(" (*\"");
                if (ann >= 0) {
                    annotation = text.substring(ann + 1);
                    text = text.substring(0, ann);
                }
                lines.add(new Line(addr, org.jptxas.sass.SassLexer.normalize(text), lo, hi, annotation));
            } else if (t.endsWith(":") && !t.startsWith("/*") && !t.startsWith("//") && !t.contains(" ")) {
                pending.add(t.substring(0, t.length() - 1));
            }
        }
        if (!lines.isEmpty() || !pending.isEmpty()) {
            finish(sections, name, lines, labels, pending);
        }
        return new NvdisasmListing(List.copyOf(sections));
    }

    private static void finish(List<Section> sections, String name, List<Line> lines, Map<String, Long> labels,
                               List<String> pending) {
        long end = lines.isEmpty() ? 0 : lines.get(lines.size() - 1).address() + 16;
        for (String l : pending) {
            labels.put(l, end);
        }
        sections.add(new Section(name, List.copyOf(lines), Map.copyOf(labels)));
    }

    public int instructionCount() {
        return sections.stream().mapToInt(s -> s.lines().size()).sum();
    }
}
