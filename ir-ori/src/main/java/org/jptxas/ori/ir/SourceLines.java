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
            locs = Map.copyOf(locs); // the same instance when already unmodifiable: shared, not copied
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
        return functions.values().stream()
                .flatMap(f -> java.util.stream.Stream.concat(f.locs().values().stream(),
                        java.util.stream.Stream.ofNullable(f.first())))
                .anyMatch(l -> !declared.contains(l.file()));
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
