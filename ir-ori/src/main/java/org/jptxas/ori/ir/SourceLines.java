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
 * @param files     the {@code .file} directives in source order
 * @param locs      PTX line of an instruction → the {@code .loc} in effect there (lines without one are absent)
 * @param functions by name: the PTX lines of the body's braces and the body's first {@code .loc}
 * @param ptxText   the PTX text as ptxas embeds it in {@code .nv_debug_ptx_txt} (one NUL-terminated line per line)
 * @param checksum  Adler-32 of the PTX file's bytes: ptxas names relocatable output's {@code .nv_debug_ptx_txt.N} by it
 */
public record SourceLines(List<File> files, Map<Integer, Loc> locs, Map<String, FunctionLines> functions,
                          byte[] ptxText, long checksum) {
    /** No line information: modules built without the PTX front end, or several inputs compiled together. */
    public static final SourceLines NONE = new SourceLines(List.of(), Map.of(), Map.of(), new byte[0], 0);

    public SourceLines {
        files = List.copyOf(files);
        locs = Map.copyOf(locs);
        functions = Map.copyOf(functions);
        Objects.requireNonNull(ptxText, "ptxText");
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
     * One function's body: the PTX lines of its {@code {} and {@code }} and the first {@code .loc} in it (null when
     * it has none), which ptxas gives the code it adds before the body's first instruction.
     */
    public record FunctionLines(int open, int close, Loc first) {}

    /**
     * Whether the PTX holds {@code .loc} directives and a {@code .file}: ptxas then writes line tables even without
     * {@code -lineinfo} (without a {@code .file} it does not).
     */
    public boolean hasLoc() {
        return !files.isEmpty() && (!locs.isEmpty() || functions.values().stream().anyMatch(f -> f.first() != null));
    }

    /** Whether a {@code .loc} names a file no {@code .file} declares (ptxas warns that line information may be incomplete). */
    public boolean locWithoutFile() {
        java.util.Set<Integer> declared = new java.util.HashSet<>();
        files.forEach(f -> declared.add(f.index()));
        return java.util.stream.Stream.concat(locs.values().stream(),
                        functions.values().stream().map(FunctionLines::first).filter(Objects::nonNull))
                .anyMatch(l -> !declared.contains(l.file()));
    }

    /** The same tables with {@code replacement} as the {@code .file} table. */
    public SourceLines withFiles(List<File> replacement) {
        return new SourceLines(replacement, locs, functions, ptxText, checksum);
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
