package org.jptxas.cubin;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.jptxas.testing.Corpus;
import org.jptxas.testing.OracleCubins;
import org.jptxas.testing.gate.Gate;

/**
 * One cubin the corpus tests check: a ptxas-accepted corpus file compiled by ptxas 13 for one target, executable or
 * relocatable ({@code -c}). Shared by the tests that sweep every such cubin, so they sweep the same set.
 */
public record CorpusCubin(Corpus.Entry entry, String arch, boolean relocatable) {
    /** The targets the cubin tests cover: every generation ptxas 13 writes. */
    public static final List<String> ARCHS = List.of("sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_100", "sm_120");

    /**
     * How many of {@link #all()} ptxas 13 compiles (the rest it refuses with one of {@link #REFUSALS}): the minimum every
     * sweep over them compares, so that a cubin ptxas stops writing cannot leave a test comparing fewer.
     */
    public static final int COMPILED = 2238;

    /**
     * ptxas's refusals of a combination besides a {@code .target} above the target ({@link #targetAbove}): an
     * {@code sm_XXa} target or instruction for another target, {@code -c} of PTX before ISA 3.1 or without the ABI.
     * Such a cubin does not exist and is not compared; any other ptxas failure is an oracle failure.
     */
    public static final List<String> REFUSALS = List.of("SM version specified by .target is higher",
            "cannot be compiled for architecture", "'Compile only(-c)' requires PTX ISA .version 3.1 or later",
            "'Compile only(-c)' requires ABI");

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

    /** ptxas 13's cubin, from the shared cache. */
    public OracleCubins.Compiled compile() {
        return relocatable ? OracleCubins.ptxas13(entry.file(), arch, "-c") : OracleCubins.ptxas13(entry.file(), arch);
    }

    /**
     * The cubin's bytes; null where ptxas refuses the combination ({@link #REFUSALS}), and null after reporting to
     * {@code gate} as an oracle failure where ptxas failed otherwise.
     */
    public byte[] bytes(Function<CorpusCubin, OracleCubins.Compiled> compile, Gate gate) {
        OracleCubins.Compiled c = compile.apply(this);
        if (!c.ok()) {
            if (targetAbove() || refused(c.diagnostics())) {
                return null;
            }
            gate.oracleFailed(describe(), "ptxas 13: " + c.diagnostics().lines().findFirst().orElse("(no message)"));
            return null;
        }
        try {
            return java.nio.file.Files.readAllBytes(c.cubin().orElseThrow());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    public static boolean refused(String diagnostics) {
        return diagnostics.lines().anyMatch(l -> REFUSALS.stream().anyMatch(l::contains));
    }

    /** Whether the file's {@code .target} is above this target (ptxas then refuses it, whatever it says first). */
    public boolean targetAbove() {
        String target = entry.get("target").split(",")[0].strip().replaceAll("[a-z]+$", "");
        return target.matches("sm_\\d+") && Integer.parseInt(target.substring(3)) > Integer.parseInt(arch.substring(3));
    }

    /** {@code file sm_XX [-c]}, for failure messages and known-exception keys. */
    public String describe() {
        return entry.file().getFileName() + " " + arch + (relocatable ? " -c" : "");
    }
}
