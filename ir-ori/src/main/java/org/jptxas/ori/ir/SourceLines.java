package org.jptxas.ori.ir;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What the PTX says about source lines, for the line tables ptxas writes ({@code .debug_line},
 * {@code .nv_debug_line_sass}, {@code .nv_debug_ptx_txt}): the {@code .file} table, the {@code .loc} in effect at
 * each PTX line that holds an instruction, each function's braces and first {@code .loc}, and the PTX text as ptxas
 * embeds it. Instructions carry their PTX line ({@link Instr#line()}) through code generation; these tables turn a
 * SASS instruction's PTX line into its source position.
 *
 * <p>Several inputs compiled together share one {@code .file} index space (ptxas refuses an index declared twice,
 * across inputs too) and one line table, so their tables {@link #merge}; each function keeps the PTX lines of its
 * own input, which is why the {@code .loc}s are held per function.
 *
 * @param files     the {@code .file} directives in source order
 * @param functions by name: the PTX lines of the body's braces, the body's first {@code .loc} and the {@code .loc} in
 *                  effect at each of its instructions' lines
 * @param ptxText   the PTX text as ptxas embeds it in {@code .nv_debug_ptx_txt} (one NUL-terminated line per line)
 * @param checksum  Adler-32 of the PTX file's bytes: ptxas names relocatable output's {@code .nv_debug_ptx_txt.N} by it
 * @param locAsksForLineTables whether the input's {@code .loc}s ask for line tables without {@code -lineinfo}: ptxas 13
 *                  writes them unasked for PTX ISA 4.0 and later only (a 3.2 file with {@code .loc} and {@code .file}
 *                  gets none, and {@code --suppress-debug-info} alone draws its warning there)
 */
public record SourceLines(List<File> files, Map<String, FunctionLines> functions, byte[] ptxText, long checksum,
                          boolean locAsksForLineTables) {
    /** No line information: modules built without the PTX front end. */
    public static final SourceLines NONE = new SourceLines(List.of(), Map.of(), new byte[0], 0);

    /** PTX ISA 4.0 and later: the .locs ask for line tables. */
    public SourceLines(List<File> files, Map<String, FunctionLines> functions, byte[] ptxText, long checksum) {
        this(files, functions, ptxText, checksum, true);
    }

    public SourceLines {
        files = List.copyOf(files);
        functions = Map.copyOf(functions);
        Objects.requireNonNull(ptxText, "ptxText");
    }

    /**
     * The tables of several inputs compiled into one cubin, in command-line order, as ptxas 13 writes them: every
     * input's files and functions, and the PTX text (and its checksum) of the last input only (ptxas embeds that one;
     * the PTX line rows of the other inputs' functions keep their own inputs' line numbers all the same).
     */
    public static SourceLines merge(List<SourceLines> inputs) {
        if (inputs.size() == 1) {
            return inputs.get(0);
        }
        List<File> files = new java.util.ArrayList<>();
        Map<String, FunctionLines> functions = new java.util.HashMap<>();
        SourceLines last = NONE;
        boolean asks = false;
        for (SourceLines in : inputs) {
            files.addAll(in.files());
            in.functions().forEach(functions::putIfAbsent);
            last = in;
            asks |= in.locAsksForLineTables && in.hasLoc();
        }
        return new SourceLines(files, functions, last.ptxText, last.checksum, asks);
    }

    /** {@code .file index "path"[, timestamp, size]}; timestamp and size are -1 when not written. */
    public record File(int index, String path, long timestamp, long size) {
        public File {
            Objects.requireNonNull(path, "path");
        }
    }

    /** A {@code .loc file line column}. */
    public record Loc(int file, int line, int column) {}

    /**
     * One function's body: the PTX lines of its {@code {} and {@code }}, the first {@code .loc} in it (null when
     * it has none), which ptxas gives the code it adds before the body's first instruction, and the {@code .loc} in
     * effect at each PTX line of its input that holds an instruction (lines without one are absent): the function's
     * own and those of functions inlined into it. The functions of one input share that map.
     */
    public record FunctionLines(int open, int close, Loc first, Map<Integer, Loc> locs) {
        public FunctionLines {
            // the same instance when already a line table: the functions of one input share it, not copied
            locs = locs instanceof LineLocs l ? l : new LineLocs(locs);
        }

        /** The {@code .loc} entry of the highest PTX line below {@code line}, or null when there is none. */
        public Map.Entry<Integer, Loc> locBelow(int line) {
            return ((LineLocs) locs).below(line);
        }
    }

    /**
     * An unmodifiable PTX line to {@code .loc} map that also answers the nearest line below a given one. One input's
     * functions share a single map of every line in the input, so the sorted lines are kept here, built once: a
     * sorted copy made per function had cost time and memory in the number of functions times the input's lines.
     */
    public static final class LineLocs extends java.util.AbstractMap<Integer, Loc> {
        private final Map<Integer, Loc> byLine;
        private final int[] lines;

        public LineLocs(Map<Integer, Loc> locs) {
            byLine = Map.copyOf(locs);
            lines = new int[byLine.size()];
            int i = 0;
            for (Integer line : byLine.keySet()) {
                lines[i++] = line;
            }
            java.util.Arrays.sort(lines);
        }

        /** The entry of the highest line below {@code line}, or null. */
        Map.Entry<Integer, Loc> below(int line) {
            int at = java.util.Arrays.binarySearch(lines, line);
            int lower = (at >= 0 ? at : -at - 1) - 1;
            return lower < 0 ? null : Map.entry(lines[lower], byLine.get(lines[lower]));
        }

        @Override
        public Loc get(Object line) {
            return byLine.get(line);
        }

        @Override
        public boolean containsKey(Object line) {
            return byLine.containsKey(line);
        }

        @Override
        public int size() {
            return byLine.size();
        }

        @Override
        public java.util.Set<Map.Entry<Integer, Loc>> entrySet() {
            return byLine.entrySet();
        }
    }

    /**
     * Whether the PTX holds {@code .loc} directives and a {@code .file} and is PTX ISA 4.0 or later: ptxas then writes
     * line tables even without {@code -lineinfo} (without a {@code .file}, or in an older PTX, it does not).
     */
    public boolean hasLoc() {
        return locAsksForLineTables && !files.isEmpty()
                && functions.values().stream().anyMatch(f -> f.first() != null || !f.locs().isEmpty());
    }

    /** Whether a {@code .loc} names a file no {@code .file} declares (ptxas warns that line information may be incomplete). */
    public boolean locWithoutFile() {
        java.util.Set<Integer> declared = new java.util.HashSet<>();
        files.forEach(f -> declared.add(f.index()));
        // the functions of one input share their map: each map is looked at once, not once per function
        java.util.Set<Map<Integer, Loc>> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        for (FunctionLines f : functions.values()) {
            if (f.first() != null && !declared.contains(f.first().file())) {
                return true;
            }
            if (seen.add(f.locs())) {
                for (Loc l : f.locs().values()) {
                    if (!declared.contains(l.file())) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /** The same tables with {@code replacement} as the {@code .file} table. */
    public SourceLines withFiles(List<File> replacement) {
        return new SourceLines(replacement, functions, ptxText, checksum, locAsksForLineTables);
    }

    /** Whether there is anything at all (a PTX front end made these tables). */
    public boolean present() {
        return ptxText.length > 0 || !functions.isEmpty();
    }

    @Override
    public byte[] ptxText() {
        return ptxText.clone();
    }
}
