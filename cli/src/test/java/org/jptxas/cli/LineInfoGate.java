package org.jptxas.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jptxas.testing.gate.Gate;

/**
 * The core of issue 21's {@code -lineinfo} gate ({@link LineInfoOracleTest}), apart from where its inputs come from so
 * that {@link LineInfoGateFaultsTest} can plant faults: for each item (a PTX file and an SM), ptxas 13's cubin and
 * jptxas's, both compiled with {@code -lineinfo}, must be annotated by {@code nvdisasm -g} with the same set of source
 * lines (file and line) per function, and list the same debug sections ({@code cuobjdump -elf}: every section whose
 * name holds {@code debug}, relocations included). A file jptxas refuses as out of scope is not compared; any other
 * refusal differs; an exception of our code is a crash; ptxas failing on a file it accepts is an oracle failure.
 */
final class LineInfoGate {
    private LineInfoGate() {}

    /** One comparison: key {@code file@sm}. */
    record Item(String key, Path ptx, String arch) {}

    /** What the tools show of a cubin: source lines ({@code file:line}) by function, and debug section names. */
    record Annotation(Map<String, Set<String>> lines, Set<String> debugSections) {}

    /** A compiler's outcome: a cubin, or its messages when it refused the input. */
    record Compiled(Path cubin, String messages) {}

    interface Compiler {
        Compiled compile(Item item) throws Exception;
    }

    interface Annotator {
        Annotation annotate(Path cubin) throws Exception;
    }

    /**
     * What the run saw beside the gate's tally; {@code details} holds every differing pair's difference, excused or
     * not (the report the known exceptions are studied from).
     */
    record Outcome(Gate gate, int agreeing, int outOfScope, Map<String, String> details) {}

    /** Whether jptxas refused the input as out of scope (an instruction family the code generator leaves for later). */
    interface Scope {
        boolean outOfScope(String messages);
    }

    static Outcome run(String name, List<Item> items, Compiler ptxas, Compiler ours, Annotator tools, Scope scope,
                       Map<String, String> known) {
        Gate gate = Gate.withKnown(name, known);
        int agreeing = 0;
        int outOfScope = 0;
        Map<String, String> details = new java.util.LinkedHashMap<>();
        for (Item item : items) {
            Compiled theirs;
            try {
                theirs = ptxas.compile(item);
            } catch (Exception e) {
                gate.oracleFailed(item.key(), "ptxas: " + e);
                continue;
            }
            if (theirs.cubin() == null) {
                gate.oracleFailed(item.key(), "ptxas: " + theirs.messages());
                continue;
            }
            Compiled mine;
            try {
                mine = ours.compile(item);
            } catch (Exception | AssertionError e) {
                gate.crash(item.key(), e);
                continue;
            }
            if (mine.cubin() == null) {
                if (scope.outOfScope(mine.messages())) {
                    outOfScope++;
                } else if (mine.messages().contains("Internal error")) {
                    gate.crash(item.key(), new AssertionError(mine.messages()));
                } else {
                    gate.differ(item.key(), "jptxas refused it: " + mine.messages().strip());
                }
                continue;
            }
            Annotation a;
            Annotation b;
            try {
                a = tools.annotate(theirs.cubin());
            } catch (Exception e) {
                gate.oracleFailed(item.key(), "nvdisasm/cuobjdump on ptxas's cubin: " + e);
                continue;
            }
            try {
                b = tools.annotate(mine.cubin());
            } catch (Exception e) {
                gate.differ(item.key(), "nvdisasm/cuobjdump on jptxas's cubin: " + e);
                continue;
            }
            String difference = difference(a, b);
            if (difference == null) {
                gate.pass();
                agreeing++;
            } else {
                gate.differ(item.key(), difference);
                details.put(item.key(), difference);
            }
        }
        return new Outcome(gate, agreeing, outOfScope, details);
    }

    /** How {@code ours} departs from {@code ptxas}, or null when they agree. */
    static String difference(Annotation ptxas, Annotation ours) {
        StringBuilder sb = new StringBuilder();
        if (!ptxas.debugSections().equals(ours.debugSections())) {
            sb.append("debug sections: ptxas only ").append(minus(ptxas.debugSections(), ours.debugSections()))
                    .append(", jptxas only ").append(minus(ours.debugSections(), ptxas.debugSections())).append('\n');
        }
        Set<String> functions = new TreeSet<>(ptxas.lines().keySet());
        functions.addAll(ours.lines().keySet());
        for (String f : functions) {
            Set<String> p = ptxas.lines().getOrDefault(f, Set.of());
            Set<String> o = ours.lines().getOrDefault(f, Set.of());
            if (!p.equals(o)) {
                sb.append(f).append(": ptxas only ").append(minus(p, o)).append(", jptxas only ").append(minus(o, p))
                        .append('\n');
            }
        }
        return sb.length() == 0 ? null : sb.toString().strip();
    }

    private static Set<String> minus(Set<String> a, Set<String> b) {
        Set<String> d = new TreeSet<>(a);
        d.removeAll(b);
        return d;
    }

    private static final Pattern TEXT_SECTION = Pattern.compile("^\\s*\\.section\\s+\\.text\\.([^,\\s]+),");
    private static final Pattern LINE = Pattern.compile("^\\s*//## File \"(.*)\", line (\\d+)");

    /** The source lines {@code nvdisasm -g} annotates, by the function whose code section they are in. */
    static Map<String, Set<String>> annotatedLines(String nvdisasmG) {
        Map<String, Set<String>> out = new TreeMap<>();
        String function = null;
        for (String line : nvdisasmG.split("\n")) {
            Matcher t = TEXT_SECTION.matcher(line);
            if (t.find()) {
                function = t.group(1);
            }
            Matcher m = LINE.matcher(line);
            if (m.find() && function != null) {
                out.computeIfAbsent(function, k -> new TreeSet<>()).add(m.group(1) + ":" + m.group(2));
            }
        }
        return out;
    }

    /**
     * The blocks {@code cuobjdump -elf} prints for the line programs, the embedded PTX, .debug_str and the PTX's own
     * DWARF (abbreviations, DIEs; header line to the next section), by section name: what jcuobjdump must print the
     * same.
     */
    static Map<String, String> lineSectionBlocks(String elfDump) {
        Map<String, String> blocks = new TreeMap<>();
        for (String name : List.of(".debug_line", ".nv_debug_line_sass", ".nv_debug_ptx_txt", ".debug_str",
                ".debug_abbrev", ".debug_info", ".debug_pubnames", ".debug_macinfo")) {
            int at = elfDump.indexOf("\n.section " + name + "\n");
            if (at >= 0) {
                int end = elfDump.indexOf("\n.section ", at + 1);
                blocks.put(name, elfDump.substring(at, end < 0 ? elfDump.length() : end));
            }
        }
        return blocks;
    }

    /** The names in {@code cuobjdump -elf}'s section table that hold {@code debug}. */
    static Set<String> debugSections(String cuobjdumpElf) {
        Set<String> out = new TreeSet<>();
        int at = cuobjdumpElf.indexOf("Sections:\n");
        if (at < 0) {
            throw new IllegalArgumentException("no section table in cuobjdump's output");
        }
        String[] lines = cuobjdumpElf.substring(at).split("\n");
        for (int i = 2; i < lines.length && !lines[i].isBlank(); i++) {
            String[] cells = lines[i].trim().split("\\s+");
            String name = cells[cells.length - 1];
            if (name.contains("debug")) {
                out.add(name);
            }
        }
        return out;
    }
}
