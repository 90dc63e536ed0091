package org.jptxas.isel.cubin;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.testing.Corpus;
import org.jptxas.testing.OracleCubins;

/**
 * One cubin the corpus tests check: a ptxas-accepted corpus file compiled by ptxas 13 for one target, executable or
 * relocatable ({@code -c}). Shared by the tests that sweep every such cubin, so they sweep the same set.
 */
public record CorpusCubin(Corpus.Entry entry, String arch, boolean relocatable) {
    /** The targets the cubin tests cover: every generation ptxas 13 writes. */
    public static final List<String> ARCHS = List.of("sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_100", "sm_120");

    /** Every (accepted file, target, executable/-c) combination; skips the calling test without the corpus. */
    public static List<CorpusCubin> all() {
        List<CorpusCubin> all = new ArrayList<>();
        for (Corpus.Entry e : Corpus.assumeEntries()) {
            if (!e.ptxasAccepts()) {
                continue;
            }
            for (String arch : ARCHS) {
                all.add(new CorpusCubin(e, arch, false));
                all.add(new CorpusCubin(e, arch, true));
            }
        }
        return all;
    }

    /** ptxas 13's cubin, from the shared cache; not ok where ptxas refuses the file for this target. */
    public OracleCubins.Compiled compile() {
        return relocatable ? OracleCubins.ptxas13(entry.file(), arch, "-c") : OracleCubins.ptxas13(entry.file(), arch);
    }

    /** {@code file sm_XX [-c]}, for failure messages. */
    public String describe() {
        return entry.file().getFileName() + " " + arch + (relocatable ? " -c" : "");
    }
}
