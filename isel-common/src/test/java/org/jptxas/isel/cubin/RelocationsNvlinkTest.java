package org.jptxas.isel.cubin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.jptxas.testing.OracleCubins;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.Processes;
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
    private static final class Tally {
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

    @Test
    void relocationsApplyAsNvlinkAppliesThem() throws Exception {
        Path nvlink = Oracles.assumePtxas13().resolveSibling("nvlink");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(nvlink), "nvlink 13 not next to ptxas 13");
        List<CorpusCubin> jobs = CorpusCubin.all().stream().filter(CorpusCubin::relocatable).toList();
        Map<String, Tally> tallies = new TreeMap<>();
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int n = 0; n < jobs.size(); n++) {
                CorpusCubin job = jobs.get(n);
                Path out = tmp.resolve("linked" + n + ".cubin");
                futures.add(pool.submit(() -> {
                    OracleCubins.Compiled c = job.compile();
                    if (!c.ok()) {
                        return null;
                    }
                    Path object = c.cubin().orElseThrow();
                    Processes.Result r = Processes.run(List.of(nvlink.toString(), "-arch=" + job.arch(),
                            object.toString(), "-o", out.toString()), tmp);
                    if (r.exitCode() != 0) {
                        failures.add(job.describe() + ": nvlink failed: " + r.stderr().strip());
                        return null;
                    }
                    Map<String, Tally> mine = new TreeMap<>();
                    compare(job, Cubin.read(Files.readAllBytes(object)), Cubin.read(Files.readAllBytes(out)),
                            mine, failures);
                    synchronized (tallies) {
                        mine.forEach((k, v) -> tallies.merge(k, v, Tally::plus));
                    }
                    Files.delete(out);
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        int equal = 0;
        System.out.println("relocations vs nvlink 13 (each corpus -c object linked alone):");
        for (Map.Entry<String, Tally> e : tallies.entrySet()) {
            Tally t = e.getValue();
            equal += t.equal;
            System.out.printf("  %-44s equal %5d, differ %4d | left for the driver %5d, target chosen by nvlink %5d,"
                    + " section rewritten by nvlink %5d%n", e.getKey(), t.equal, t.differ, t.keptForDriver,
                    t.chosenByNvlink, t.sectionRewritten);
        }
        assertEquals(List.of(), List.copyOf(failures).subList(0, Math.min(20, failures.size())));
        assertTrue(equal > 0, "nothing compared");
    }

    private static void compare(CorpusCubin job, Cubin object, Cubin linked, Map<String, Tally> tallies,
                                ConcurrentLinkedQueue<String> failures) {
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
                } else {
                    t.differ++;
                    failures.add(job.describe() + ": " + r.typeName() + " at " + target.name() + "+0x"
                            + Long.toHexString(r.offset()) + " against " + symbols.get(r.symbol()).name()
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
