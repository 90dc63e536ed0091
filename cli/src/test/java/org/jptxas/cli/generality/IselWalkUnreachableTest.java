package org.jptxas.cli.generality;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.jptxas.cli.generality.FormKernels.Kernel;
import org.jptxas.cli.generality.FormSuite.Kind;
import org.jptxas.cli.generality.ThreeWay.Compiled;
import org.jptxas.cli.generality.ThreeWay.Compiler;
import org.jptxas.tables.TableLoader;
import org.jptxas.tables.isel.MatcherData;
import org.jptxas.tables.isel.MatcherTable;
import org.junit.jupiter.api.Test;

/**
 * Proves isel-common's {@code isel-walk-unreachable.json}, the instructions IselWalkTest counts apart as not reached
 * from valid PTX on a target: for each of its targets and opcodes, every instruction form of the PTX opcodes whose
 * lowering writes that opcode ({@link #WRITERS}) that the front end accepts for the target compiles there without
 * an instruction-selection error ("no matcher selects", "no encoding form"). Were a pattern's instruction written on
 * that target, the compile of its PTX form would fail so, since the target's SASS table has no form for it. The
 * PTX gates the patterns name are ptxas 13's too (on sm_75 it refuses cvt to .bf16, cvt.relu and cvt.f16x2.f32 with
 * "requires .target sm_80 or higher"); the slow instruction-form suite checks the same for every opcode (a selection
 * failure would be a NO_MATCHER or NO_ENCODING row of form-failures.tsv).
 */
class IselWalkUnreachableTest {
    static final String PATTERNS = "/org/jptxas/isel/select/isel-walk-unreachable.json";

    /**
     * The PTX opcodes whose lowering writes each SASS opcode the patterns name: F2FP by CvtLowerer (cvt to 16-bit
     * and 8-bit floats and tf32), QuadPairMma and WidenedMma (mma).
     */
    static final Map<String, List<String>> WRITERS = Map.of("F2FP", List.of("cvt", "mma"));

    @Test
    void noFormOfTheWritersReachesAnUnreachablePattern() throws IOException {
        MatcherTable table;
        try (InputStream in = IselWalkUnreachableTest.class.getResourceAsStream(PATTERNS)) {
            assertTrue(in != null, PATTERNS + " not on the test class path (isel-common's test jar)");
            table = TableLoader.read(PATTERNS, in, MatcherTable.class);
        }
        Map<String, Set<String>> writersByTarget = new TreeMap<>();
        for (MatcherData m : table.matchers()) {
            assertTrue(!m.targets().isEmpty() && !m.ops().isEmpty(), m.name() + ": a pattern names its targets and ops");
            for (String op : m.ops()) {
                assertTrue(WRITERS.containsKey(op), m.name() + ": no PTX writers known for " + op);
                for (String t : m.targets()) {
                    writersByTarget.computeIfAbsent(t, k -> new TreeSet<>()).addAll(WRITERS.get(op));
                }
            }
        }
        StringBuilder report = new StringBuilder();
        List<String> failures = new ArrayList<>();
        writersByTarget.forEach((sm, opcodes) -> {
            List<FormCase> cases = InstructionFormSuiteTest.cases().stream()
                    .filter(c -> opcodes.contains(c.opcode())).toList();
            Outcome o = iselFailures(sm, cases, ThreeWay.JPTXAS);
            report.append(sm).append(' ').append(opcodes).append(": ").append(cases.size()).append(" forms, ")
                    .append(o.accepted()).append(" accepted, ").append(o.compiled()).append(" compiled, ")
                    .append(o.failures().size()).append(" selection failures\n");
            assertTrue(o.accepted() >= 100 && o.compiled() >= 100, "too few forms reach the compiler: " + report);
            failures.addAll(o.failures());
        });
        System.out.print(report);
        assertEquals("", String.join("\n", failures), "PTX forms that reach an instruction the target cannot select");
    }

    @Test
    void aSelectionFailureIsFound() {
        List<FormCase> cases = InstructionFormSuiteTest.cases().stream().filter(c -> c.opcode().equals("cvt"))
                .limit(60).toList();
        // a compiler whose selection fails on every kernel: each accepted form must be reported, by its case
        Compiler planted = (fileName, ptx, sm) -> Compiled.failed(
                "Internal error: no sm_75 matcher selects 'F2FP.PACK_AB R, R, R'", List.of());
        Outcome o = iselFailures("sm_75", cases, planted);
        assertTrue(o.accepted() > 0, o.toString());
        assertEquals(o.accepted(), o.failures().size(), "failures reported");
        assertTrue(o.failures().stream().allMatch(f -> f.startsWith("sm_75 | NO_MATCHER | ") && f.contains("cvt.")),
                o.failures().get(0));
    }

    /** The writers' forms on one target: how many the front end accepts, compile, and which fail in selection. */
    record Outcome(int accepted, int compiled, List<String> failures) {}

    /**
     * Compiles the {@code cases} the front end accepts for {@code sm} (a case the suite cannot render as a full
     * kernel is taken as its probe kernel) and lists each that fails in instruction selection or crashes.
     */
    static Outcome iselFailures(String sm, List<FormCase> cases, Compiler compiler) {
        Kernel[] kernels = new Kernel[cases.size()];
        List<Integer> rendered = FormKernels.renderAll(cases, kernels, true);
        int accepted = 0, compiled = 0;
        List<String> failures = new ArrayList<>();
        for (List<Integer> chunk : FormSuite.chunks(rendered, FormSuite.MODULE)) {
            List<Integer> ok = FormSuite.frontEnd(sm, chunk, kernels);
            accepted += ok.size();
            List<Kernel> ks = ok.stream().map(i -> kernels[i]).toList();
            Compiled[] out = ks.isEmpty() ? new Compiled[0] : FormSuite.compileEach(compiler, sm, ks);
            for (int j = 0; j < out.length; j++) {
                if (out[j].ok()) {
                    compiled++;
                    continue;
                }
                Kind kind = FormSuite.compileKind(out[j]);
                if (kind == Kind.NO_MATCHER || kind == Kind.NO_ENCODING || kind == Kind.CRASH) {
                    failures.add(sm + " | " + kind + " | " + cases.get(ok.get(j)).key() + " | "
                            + FormSuite.firstError(out[j]));
                }
            }
        }
        return new Outcome(accepted, compiled, failures);
    }
}
