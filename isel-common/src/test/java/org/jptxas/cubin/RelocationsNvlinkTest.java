package org.jptxas.cubin;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.jptxas.isel.gates.GateRuns;
import org.jptxas.testing.OracleCubins;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.Processes;
import org.jptxas.testing.gate.Figures;
import org.jptxas.testing.gate.Gate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every relocation type ptxas 13 writes in the corpus's {@code -c} objects is applied by
 * {@link Relocations#applyResolved} as nvlink 13 applies it: each object is linked alone with nvlink 13, and where
 * nvlink resolved a relocation itself (it left none at that offset), against a symbol it kept, in a section it did
 * not otherwise rewrite, our bytes must equal nvlink's. Relocations nvlink leaves for the driver, targets it chooses
 * itself (shared and bank-2 variables it re-places and drops from the symbol table, texture/sampler/surface slots,
 * the YIELD rewrites it makes only sometimes) and sections it rewrites are counted by reason, not compared.
 */
@Tag("slow")
class RelocationsNvlinkTest {
    @TempDir
    Path tmp;

    /** Symbol types of texture, sampler and surface references: nvlink assigns their bindless slots. */
    private static final Set<Integer> TEXTURE_LIKE = Set.of(10, 11, 12);

    /** One tally per (type, target section kind). */
    static final class Tally {
        int equal;
        int differ;
        int keptForDriver;
        int chosenByNvlink;
        int sectionRewritten;

        Tally plus(Tally o) {
            equal += o.equal;
            differ += o.differ;
            keptForDriver += o.keptForDriver;
            chosenByNvlink += o.chosenByNvlink;
            sectionRewritten += o.sectionRewritten;
            return this;
        }
    }

    /** What nvlink wrote for one object linked alone, or its failure. */
    record Linked(int exitCode, String diagnostics, byte[] cubin) {}

    @Test
    void relocationsApplyAsNvlinkAppliesThem() {
        Path nvlink = Oracles.assumeNvlink13();
        List<CorpusCubin> jobs = CorpusCubin.all().stream().filter(CorpusCubin::relocatable).toList();
        AtomicInteger n = new AtomicInteger();
        Map<String, Tally> tallies = new TreeMap<>();
        Gate gate = compare(jobs, CorpusCubin::compile, (job, object) -> link(nvlink, job, object,
                tmp.resolve("linked" + n.incrementAndGet() + ".cubin")), tallies);
        System.out.println("relocations vs nvlink 13 (each corpus -c object linked alone):");
        for (Map.Entry<String, Tally> e : tallies.entrySet()) {
            Tally t = e.getValue();
            System.out.printf("  %-44s equal %5d, differ %4d | left for the driver %5d, target chosen by nvlink %5d,"
                    + " section rewritten by nvlink %5d%n", e.getKey(), t.equal, t.differ, t.keptForDriver,
                    t.chosenByNvlink, t.sectionRewritten);
        }
        System.out.println(gate.summary());
        gate.verify(1);
        Figures.check("cubin.relocations.nvlink.equal", gate.compared());
    }

    static Linked link(Path nvlink, CorpusCubin job, Path object, Path out) {
        Processes.Result r = Processes.run(List.of(nvlink.toString(), "-arch=" + job.arch(), object.toString(), "-o",
                out.toString()), out.getParent());
        try {
            byte[] bytes = r.exitCode() == 0 ? Files.readAllBytes(out) : null;
            Files.deleteIfExists(out);
            return new Linked(r.exitCode(), r.stderr(), bytes);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * The gate: one item per relocation whose nvlink result is comparable (see the class comment), equal when our
     * applied bytes are nvlink's. An nvlink failure on an object ptxas wrote is an oracle failure.
     */
    static Gate compare(List<CorpusCubin> jobs, Function<CorpusCubin, OracleCubins.Compiled> compile,
                        BiFunction<CorpusCubin, Path, Linked> linker, Map<String, Tally> tallies) {
        Gate gate = Gate.named("relocations applied as nvlink 13 applies them");
        GateRuns.each(jobs, CorpusCubin::describe, gate, job -> {
            byte[] bytes = job.bytes(compile, gate);
            if (bytes == null) {
                return;
            }
            Linked l;
            try {
                l = linker.apply(job, compile.apply(job).cubin().orElseThrow());
            } catch (RuntimeException | AssertionError e) {
                gate.oracleFailed(job.describe(), "nvlink: " + e);
                return;
            }
            if (l.exitCode() != 0) {
                gate.oracleFailed(job.describe(), "nvlink exit " + l.exitCode() + ": " + l.diagnostics());
                return;
            }
            Map<String, Tally> mine = new TreeMap<>();
            compare(job, Cubin.read(bytes), Cubin.read(l.cubin()), mine, gate);
            synchronized (tallies) {
                mine.forEach((k, v) -> tallies.merge(k, v, Tally::plus));
            }
        });
        return gate;
    }

    private static void compare(CorpusCubin job, Cubin object, Cubin linked, Map<String, Tally> tallies, Gate gate) {
        List<Symbol> symbols = object.symbols();
        Map<String, Symbol> linkedSymbols = new HashMap<>();
        for (Symbol s : linked.symbols()) {
            linkedSymbols.putIfAbsent(s.name(), s);
        }
        boolean blackwellPlus = object.sm() >= 90;
        for (Section rel : object.sections()) {
            if (rel.type() != SectionType.REL && rel.type() != SectionType.RELA) {
                continue;
            }
            Section target = object.section(rel.info());
            Section after = linked.section(target.name()).orElse(null);
            String kind = target.isText() ? "code" : target.name().replaceAll("^(\\.nv\\.constant\\d+)\\..*", "$1.f");
            Set<Long> leftForDriver = new HashSet<>();
            for (Section l : linked.sections()) {
                if ((l.type() == SectionType.REL || l.type() == SectionType.RELA)
                        && linked.section(l.info()).name().equals(target.name())) {
                    Relocations.decode(l).forEach(x -> leftForDriver.add(x.offset()));
                }
            }
            List<Relocation> relocations = Relocations.decode(rel);
            int unit = target.isText() ? 16 : 8;
            byte[] ours = target.data();
            List<Relocation> applied = new ArrayList<>();
            for (Relocation r : relocations) {
                Tally t = tally(tallies, r, kind, blackwellPlus);
                Symbol sym = symbols.get(r.symbol());
                Symbol kept = sym.name().isEmpty() ? null : linkedSymbols.get(sym.name());
                String type = r.typeName();
                if (after == null || after.size() != target.size()) {
                    t.sectionRewritten++;
                } else if (leftForDriver.contains(r.offset())) {
                    t.keptForDriver++;
                } else if (type.contains("UNUSED_CLEAR")) {
                    if (kept != null) {
                        applied.add(r); // the function is kept: nothing is cleared
                    } else {
                        Relocations.apply(ours, r.offset(), r.type(), 0);
                        applied.add(r);
                    }
                } else if (kept == null || TEXTURE_LIKE.contains(sym.symbolType()) || type.contains("YIELD")) {
                    t.chosenByNvlink++;
                } else {
                    Relocations.applyResolved(ours, r.offset(), r.type(), kept.value() + r.addend(), bank(object, sym));
                    applied.add(r);
                }
            }
            if (applied.isEmpty()) {
                continue;
            }
            byte[] theirs = after.data();
            byte[] before = target.data();
            Set<Long> touched = new HashSet<>();
            for (Relocation r : relocations) {
                long at = target.isText() ? r.offset() & ~15L : r.offset();
                for (long q = at; q < at + unit; q++) {
                    touched.add(q);
                }
            }
            boolean rewritten = false;
            for (int q = 0; q < before.length && !rewritten; q++) {
                rewritten = !touched.contains((long) q) && before[q] != theirs[q];
            }
            for (Relocation r : applied) {
                Tally t = tally(tallies, r, kind, blackwellPlus);
                // From sm_90 on nvlink renumbers .debug_frame's CIE pointers (it repacks the section).
                if (rewritten || blackwellPlus && target.name().equals(".debug_frame") && r.typeName().equals("R_CUDA_64")) {
                    t.sectionRewritten++;
                    continue;
                }
                int at = (int) (target.isText() ? r.offset() & ~15L : r.offset());
                if (Arrays.equals(ours, at, at + unit, theirs, at, at + unit)) {
                    t.equal++;
                    gate.pass();
                } else {
                    t.differ++;
                    gate.differ(job.describe() + ": " + r.typeName() + " at " + target.name() + "+0x"
                            + Long.toHexString(r.offset()), "against " + symbols.get(r.symbol()).name()
                            + ": ours " + hex(ours, at, unit) + ", nvlink " + hex(theirs, at, unit));
                }
            }
        }
    }

    private static Tally tally(Map<String, Tally> tallies, Relocation r, String kind, boolean sm90) {
        return tallies.computeIfAbsent(r.typeName() + " in " + kind + (sm90 ? " (sm_90+)" : " (sm_75-89)"),
                k -> new Tally());
    }

    /** The constant bank of the symbol's section ({@code .nv.constant<bank>...}), else 0. */
    private static int bank(Cubin cubin, Symbol sym) {
        if (sym.shndx() <= 0 || sym.shndx() >= cubin.sections().size()) {
            return 0;
        }
        String name = cubin.section(sym.shndx()).name();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\.nv\\.constant(\\d+).*").matcher(name);
        return m.matches() ? Integer.parseInt(m.group(1)) : 0;
    }

    private static String hex(byte[] b, int at, int n) {
        return java.util.HexFormat.of().formatHex(b, at, at + n);
    }
}
