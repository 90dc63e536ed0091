package org.jptxas.cubin.info;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jptxas.cubin.CorpusCubin;
import org.jptxas.cubin.Cubin;
import org.jptxas.cubin.CubinFacts;
import org.jptxas.cubin.FunctionFacts;
import org.jptxas.cubin.Symbol;
import org.jptxas.isel.gates.GateRuns;
import org.jptxas.testing.OracleCubins;
import org.jptxas.testing.gate.Figures;
import org.jptxas.testing.gate.Gate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * For every ptxas 13 corpus cubin (7 targets, executable and -c): the global .nv.info that {@link GlobalInfo} writes
 * from the functions' facts equals ptxas's (symbol-keyed records, by symbol name), and for every function the
 * .nv.info.&lt;f&gt; that {@link FunctionInfo} writes equals ptxas's, record for record.
 */
@Tag("slow")
class FunctionInfoCorpusTest {
    /**
     * The cubins whose global .nv.info differs, exactly. Kenun99's main_contract calls inner functions that other
     * kernels call too; ptxas lists their FRAME_SIZE records in an order of its own (and keeps keccakf's, which
     * jptxas's facts attribute to one kernel only), from sm_86 on where its call graph changes.
     */
    static final Map<String, String> GLOBAL_KNOWN = Map.of(
            "Kenun99_Smartian-GPU__kernel.ptx sm_86", SHARED_INNER(),
            "Kenun99_Smartian-GPU__kernel.ptx sm_89", SHARED_INNER(),
            "Kenun99_Smartian-GPU__kernel.ptx sm_90", SHARED_INNER(),
            "Kenun99_Smartian-GPU__kernel.ptx sm_100", SHARED_INNER(),
            "Kenun99_Smartian-GPU__kernel.ptx sm_120", SHARED_INNER());

    private static String SHARED_INNER() {
        return "FRAME_SIZE records of inner functions shared by kernels: ptxas's order and set";
    }

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
    void regeneratedGlobalInfoEqualsPtxas() {
        Gate gate = globalInfo(CorpusCubin.all(), CorpusCubin::compile, GLOBAL_KNOWN);
        System.out.println(gate.summary());
        gate.verify(CorpusCubin.COMPILED);
    }

    @Test
    void regeneratedFunctionInfoEqualsPtxas() {
        Gate gate = functionInfo(CorpusCubin.all(), CorpusCubin::compile, FunctionInfoCorpusTest::regenerate);
        System.out.println(gate.summary());
        gate.verify(CorpusCubin.COMPILED);
        Figures.check("cubin.nvinfo.functions", gate.compared());
    }

    /** The gate over the cubins' global .nv.info (one item per cubin; a cubin without one is compared as empty). */
    static Gate globalInfo(List<CorpusCubin> jobs, Function<CorpusCubin, OracleCubins.Compiled> compile,
                           Map<String, String> known) {
        Gate gate = Gate.withKnown("global .nv.info regenerated from facts", known);
        GateRuns.each(jobs, CorpusCubin::describe, gate, job -> {
            byte[] bytes = job.bytes(compile, gate);
            if (bytes == null) {
                return;
            }
            Cubin cubin = Cubin.read(bytes);
            List<Symbol> symbols = cubin.symbols();
            List<String> expected = cubin.section(".nv.info")
                    .map(s -> named(NvInfo.decode(s.data(), ".nv.info"), symbols)).orElse(List.of());
            Map<String, Integer> index = new HashMap<>();
            for (int i = symbols.size() - 1; i >= 0; i--) {
                index.put(symbols.get(i).name(), i);
            }
            List<String> actual = named(GlobalInfo.records(CubinFacts.functions(cubin), job.relocatable(), index::get),
                    symbols);
            if (expected.equals(actual)) {
                gate.pass();
            } else {
                gate.differ(job.describe(), "\n  ptxas:  " + expected + "\n  jptxas: " + actual);
            }
        });
        return gate;
    }

    /** What jptxas writes as {@code f}'s .nv.info.&lt;f&gt;, given ptxas's parameter bank placement. */
    interface Regenerate {
        List<Attribute> records(Cubin cubin, FunctionFacts f, int paramBase, int constant0Symbol);
    }

    static List<Attribute> regenerate(Cubin cubin, FunctionFacts f, int paramBase, int constant0Symbol) {
        return FunctionInfo.records(cubin.sm(), f, paramBase, constant0Symbol, FunctionInfo.CUDA_API_VERSION_13_0);
    }

    /** The gate over every function's .nv.info.&lt;f&gt; (one item per function that has one). */
    static Gate functionInfo(List<CorpusCubin> jobs, Function<CorpusCubin, OracleCubins.Compiled> compile,
                             Regenerate regenerate) {
        Gate gate = Gate.named(".nv.info.<f> regenerated from facts");
        GateRuns.each(jobs, CorpusCubin::describe, gate, job -> {
            byte[] bytes = job.bytes(compile, gate);
            if (bytes == null) {
                return;
            }
            Cubin cubin = Cubin.read(bytes);
            for (FunctionFacts f : CubinFacts.functions(cubin)) {
                var info = cubin.section(".nv.info." + f.name());
                if (info.isEmpty()) {
                    continue; // a function without attributes of its own (ptxas writes none)
                }
                List<Attribute> expected = NvInfo.decode(info.get().data(), info.get().name());
                int c0 = expected.stream().filter(a -> a instanceof Attribute.ParamCbank)
                        .mapToInt(a -> ((Attribute.ParamCbank) a).symbol()).findFirst().orElse(0);
                int base = expected.stream().filter(a -> a instanceof Attribute.ParamCbank)
                        .mapToInt(a -> ((Attribute.ParamCbank) a).offset()).findFirst().orElse(0);
                List<Attribute> actual = regenerate.records(cubin, f, base, c0);
                if (expected.equals(actual)) {
                    gate.pass();
                } else {
                    gate.differ(job.describe() + " " + f.name(), "\n  ptxas:  " + expected.stream().map(Attribute::name)
                            .toList() + "\n  jptxas: " + actual.stream().map(Attribute::name).toList());
                }
            }
        });
        return gate;
    }
}
