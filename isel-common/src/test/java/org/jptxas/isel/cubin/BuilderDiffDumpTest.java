package org.jptxas.isel.cubin;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentSkipListMap;
import org.jptxas.isel.cubin.info.NvInfo;
import org.jptxas.testing.OracleCubins;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("slow")
class BuilderDiffDumpTest {
    static List<String> diffRows(List<String> a, List<String> b) {
        List<String> out = new ArrayList<>();
        for (String r : a) if (!b.contains(r)) out.add("- " + r);
        for (String r : b) if (!a.contains(r)) out.add("+ " + r);
        if (out.isEmpty() && !a.equals(b)) out.add("order: ptxas " + a + "\n   built " + b);
        return out;
    }
    static List<String> infoRows(Cubin c, String n) {
        List<String> rows = new ArrayList<>();
        c.section(n).ifPresent(s -> NvInfo.decode(s.data(), s.name()).forEach(x -> rows.add(x.toString())));
        return rows;
    }
    @Test
    void dump() throws Exception {
        ConcurrentSkipListMap<String, String> out = new ConcurrentSkipListMap<>();
        CorpusCubin.all().parallelStream().forEach(job -> {
            try {
                OracleCubins.Compiled c = job.compile();
                if (!c.ok()) return;
                Cubin ptxas = Cubin.read(Files.readAllBytes(c.cubin().orElseThrow()));
                if (!BuilderCompletenessTest.covered(ptxas)) return;
                Cubin built = BuilderCompletenessTest.rebuild(ptxas);
                List<String> d = BuilderCompletenessTest.differences(ptxas, built);
                if (d.isEmpty()) return;
                StringBuilder sb = new StringBuilder();
                sb.append("## ").append(job.describe()).append(" ").append(d).append('\n');
                sb.append(" fns=").append(CubinFacts.functions(ptxas).stream().map(f -> f.name() + (f.entry() ? "(E)" : "") + " callees=" + f.callees() + " inner=" + f.inner().size() + " crs=" + f.crsStackSize()).toList()).append('\n');
                if (d.contains("sections")) diffRows(BuilderCompletenessTest.sectionRows(ptxas), BuilderCompletenessTest.sectionRows(built)).forEach(r -> sb.append("  S ").append(r).append('\n'));
                if (d.contains("symbols")) diffRows(BuilderCompletenessTest.symbolRows(ptxas), BuilderCompletenessTest.symbolRows(built)).forEach(r -> sb.append("  Y ").append(r).append('\n'));
                if (d.contains(".nv.info")) diffRows(infoRows(ptxas, ".nv.info"), infoRows(built, ".nv.info")).forEach(r -> sb.append("  G ").append(r).append('\n'));
                for (Section s : ptxas.sections()) if (s.name().startsWith(".nv.info.")) diffRows(infoRows(ptxas, s.name()), infoRows(built, s.name())).forEach(r -> sb.append("  F ").append(s.name()).append(' ').append(r).append('\n'));
                if (d.contains("relocations")) diffRows(BuilderCompletenessTest.relocationRows(ptxas), BuilderCompletenessTest.relocationRows(built)).forEach(r -> sb.append("  R ").append(r).append('\n'));
                if (d.contains(".debug_frame")) {
                    sb.append("  DS ").append(ptxas.section(".debug_frame").map(Section::size).orElse(-1L)).append(' ').append(built.section(".debug_frame").map(Section::size).orElse(-1L)).append(' ').append(ptxas.section(".debug_frame").map(s -> s.data().length).orElse(-1)).append(' ').append(java.util.Arrays.equals(ptxas.section(".debug_frame").get().data(), built.section(".debug_frame").get().data())).append(' ').append(BuilderCompletenessTest.differences(ptxas, built)).append('\n');
                    sb.append("  D ptxas ").append(ptxas.section(".debug_frame").map(s -> java.util.HexFormat.of().formatHex(s.data())).orElse("none")).append('\n');
                    sb.append("  D built ").append(built.section(".debug_frame").map(s -> java.util.HexFormat.of().formatHex(s.data())).orElse("none")).append('\n');
                }
                out.put(job.describe(), sb.toString());
            } catch (Exception e) {
                out.put(job.describe(), "## " + job.describe() + " EXC " + e + "\n");
            }
        });
        Files.writeString(Path.of("/tmp/cubin2/diffs.txt"), String.join("", out.values()));
    }
}
