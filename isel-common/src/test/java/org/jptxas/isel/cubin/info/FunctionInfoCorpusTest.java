package org.jptxas.isel.cubin.info;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.jptxas.isel.cubin.Cubin;
import org.jptxas.isel.cubin.CubinFacts;
import org.jptxas.isel.cubin.FunctionFacts;
import org.jptxas.isel.cubin.Symbol;
import org.jptxas.isel.cubin.CorpusCubin;
import org.jptxas.testing.OracleCubins;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * For every function of every ptxas 13 corpus cubin (7 targets, executable and -c): the .nv.info.&lt;f&gt; that
 * {@link FunctionInfo} writes from the function's facts equals ptxas's, record for record.
 */
@Tag("slow")
class FunctionInfoCorpusTest {
    /** (code, symbol name, value) of the symbol-keyed global records, so symbol numbering does not matter. */
    private static List<String> named(List<Attribute> records, List<Symbol> symbols) {
        List<String> out = new ArrayList<>();
        for (Attribute a : records) {
            if (a instanceof Attribute.SymbolValue sv) {
                out.add(a.name() + " " + symbols.get(sv.symbol()).name() + " " + sv.value());
            } else if (a instanceof Attribute.Words w && a.code() == 0x23) {
                out.add(a.name() + " " + symbols.get(w.words()[0]).name() + " " + w.words()[1]);
            }
        }
        return out;
    }

    @Test
    void regeneratedGlobalInfoEqualsPtxas() throws Exception {
        int equal = 0;
        int total = 0;
        List<String> diffs = new ArrayList<>();
        for (CorpusCubin job : CorpusCubin.all()) {
            OracleCubins.Compiled c = job.compile();
            if (!c.ok()) {
                continue;
            }
            Cubin cubin = Cubin.read(Files.readAllBytes(c.cubin().orElseThrow()));
            List<Symbol> symbols = cubin.symbols();
            var global = cubin.section(".nv.info");
            if (global.isEmpty()) {
                continue;
            }
            List<String> expected = named(NvInfo.decode(global.get().data(), ".nv.info"), symbols);
            java.util.Map<String, Integer> index = new java.util.HashMap<>();
            for (int i = symbols.size() - 1; i >= 0; i--) {
                index.put(symbols.get(i).name(), i);
            }
            List<String> actual = named(GlobalInfo.records(CubinFacts.functions(cubin), job.relocatable(), index::get), symbols);
            total++;
            if (expected.equals(actual)) {
                equal++;
            } else if (diffs.size() < 5) {
                diffs.add(job.describe() + "\n  ptxas:  " + expected + "\n  jptxas: " + actual);
            }
        }
        System.out.printf("global .nv.info regenerated from facts: %d of %d equal to ptxas%n", equal, total);
        diffs.forEach(System.out::println);
        // Known gap: MIN_STACK_SIZE of kernels that are also called, and inner functions shared by kernels.
        assertTrue(equal >= total * 95 / 100, equal + " of " + total);
    }

    @Test
    void regeneratedFunctionInfoEqualsPtxas() throws Exception {
        int equal = 0;
        List<String> diffs = new ArrayList<>();
        for (CorpusCubin job : CorpusCubin.all()) {
            OracleCubins.Compiled c = job.compile();
            if (!c.ok()) {
                continue;
            }
            Cubin cubin = Cubin.read(Files.readAllBytes(c.cubin().orElseThrow()));
            List<Symbol> symbols = cubin.symbols();
            for (FunctionFacts f : CubinFacts.functions(cubin)) {
                var info = cubin.section(".nv.info." + f.name());
                if (info.isEmpty()) {
                    continue;
                }
                List<Attribute> expected = NvInfo.decode(info.get().data(), info.get().name());
                int c0 = expected.stream().filter(a -> a instanceof Attribute.ParamCbank)
                        .mapToInt(a -> ((Attribute.ParamCbank) a).symbol()).findFirst().orElse(0);
                int base = expected.stream().filter(a -> a instanceof Attribute.ParamCbank)
                        .mapToInt(a -> ((Attribute.ParamCbank) a).offset()).findFirst().orElse(0);
                List<Attribute> actual = FunctionInfo.records(cubin.sm(), f, base, c0, FunctionInfo.CUDA_API_VERSION_13_0);
                if (expected.equals(actual)) {
                    equal++;
                } else if (diffs.size() < 10) {
                    diffs.add(job.describe() + " " + f.name()
                            + "\n  ptxas:  " + expected.stream().map(Attribute::name).toList()
                            + "\n  jptxas: " + actual.stream().map(Attribute::name).toList());
                } else {
                    diffs.add("");
                }
            }
        }
        System.out.printf("nv.info.<f> regenerated from facts: %d equal to ptxas, %d different%n", equal, diffs.size());
        assertTrue(equal > 0);
        assertEquals(List.of(), diffs.stream().limit(10).toList());
    }
}
