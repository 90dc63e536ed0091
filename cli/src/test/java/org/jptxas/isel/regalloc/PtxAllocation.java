package org.jptxas.isel.regalloc;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jptxas.cubin.Cubin;
import org.jptxas.cubin.CubinFacts;
import org.jptxas.cubin.FunctionFacts;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.ori.ir.OriModule;
import org.jptxas.ori.target.Target;
import org.jptxas.testing.OracleCubins;
import org.jptxas.frontend.ptx.TestFrontEnds;
import org.jptxas.spi.TestTargets;

/** Lowers a PTX file, allocates every function with the verifier on, and compares register counts with ptxas. */
final class PtxAllocation {
    private PtxAllocation() {}

    /** One function: our register count, ptxas's (0 when unknown), spill bytes and instructions. */
    record Row(String file, String function, int ours, int ptxas, long spillBytes, int instructions) {}

    /** The rows of a file; empty when the front end does not support it yet (named in {@code unsupported}). */
    static List<Row> run(Path ptx, Target target, List<String> unsupported, boolean withOracle) throws Exception {
        return run(ptx, target, unsupported, withOracle, false);
    }

    /** With {@code optimize}, the functions go through the -O3 mid-level pipeline first, as the driver runs it. */
    static List<Row> run(Path ptx, Target target, List<String> unsupported, boolean withOracle, boolean optimize)
            throws Exception {
        return run(ptx, target, unsupported, withOracle, optimize, java.util.OptionalInt.empty());
    }

    /** With {@code maxrregcount}, allocation runs under that limit (as {@code --maxrregcount}). */
    static List<Row> run(Path ptx, Target target, List<String> unsupported, boolean withOracle, boolean optimize,
            java.util.OptionalInt maxrregcount) throws Exception {
        OriModule module;
        try {
            module = TestFrontEnds.of(target).check(ptx.getFileName().toString(), Files.readString(ptx)).lower(maxrregcount);
        } catch (CompilationException | RuntimeException e) {
            // Not lowered yet (or a front-end bug, which is the front end's tests' business).
            unsupported.add(ptx.getFileName() + ": " + e);
            return List.of();
        }
        Map<String, Integer> oracle = new HashMap<>();
        if (withOracle) {
            OracleCubins.Compiled c = OracleCubins.ptxas13(ptx, target.name());
            if (c.ok()) {
                for (FunctionFacts f : CubinFacts.functions(Cubin.read(Files.readAllBytes(c.cubin().get())))) {
                    oracle.put(f.name(), f.registers());
                }
            }
        }
        List<Row> rows = new ArrayList<>();
        for (OriFunction fn : module.functions()) {
            if (fn.body().blocks().isEmpty()) {
                continue;
            }
            if (optimize) {
                org.jptxas.ori.opt.OptPipeline.forLevel(3).run(fn, TestTargets.profile(target.name()));
            }
            RegisterLimits limits = RegisterLimits.of(TestTargets.profile(target.name()), maxrregcount, fn.attrs().maxnreg());
            Allocation a;
            try {
                a = RegisterAllocator.allocate(fn, limits, true);
            } catch (RuntimeException e) {
                throw new AssertionError(ptx.getFileName() + " " + fn.name() + ": " + e.getMessage(), e);
            }
            rows.add(new Row(ptx.getFileName().toString(), fn.name(), a.registers(), oracle.getOrDefault(fn.name(), 0),
                    a.spillBytes(), fn.body().instructionCount()));
        }
        return rows;
    }

    /** Geometric mean of ours/ptxas over rows with an oracle count. */
    static double geomeanRatio(List<Row> rows) {
        double sum = 0;
        int n = 0;
        for (Row r : rows) {
            if (r.ptxas() > 0) {
                sum += Math.log((double) r.ours() / r.ptxas());
                n++;
            }
        }
        return n == 0 ? Double.NaN : Math.exp(sum / n);
    }

    static String table(List<Row> rows) {
        StringBuilder sb = new StringBuilder(String.format("%-28s %-28s %6s %6s %6s %6s%n", "file", "function", "ours",
                "ptxas", "spill", "instrs"));
        for (Row r : rows) {
            sb.append(String.format("%-28s %-28s %6d %6d %6d %6d%n", r.file(), r.function(), r.ours(), r.ptxas(),
                    r.spillBytes(), r.instructions()));
        }
        return sb.toString();
    }
}
