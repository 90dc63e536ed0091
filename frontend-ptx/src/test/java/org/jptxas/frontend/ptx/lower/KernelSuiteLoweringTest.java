package org.jptxas.frontend.ptx.lower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.jptxas.frontend.ptx.PtxFrontEnd;
import org.jptxas.ori.analysis.IrVerifier;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.diag.UnsupportedFeatureException;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.ori.ir.OriModule;
import org.jptxas.ori.target.Target;
import org.jptxas.testing.RepoRoot;
import org.jptxas.testing.kernels.KernelCase;
import org.jptxas.testing.kernels.KernelSuite;
import org.junit.jupiter.api.Test;
import org.jptxas.frontend.ptx.TestFrontEnds;

/**
 * Every kernel of the project's suite ({@code kernels/NAME/NAME.ptx}) lowers to Ori that passes the verifier and
 * whose instructions all have sm_80 encodings (jptxas compiles the whole suite, so a "not yet supported" error is a
 * failure too, by name), and every kernel {@link KernelSuite} knows has its file.
 */
class KernelSuiteLoweringTest {
    static List<Path> kernelFiles() throws IOException {
        Path root = RepoRoot.find().orElse(null);
        org.jptxas.testing.Prerequisites.require(root != null, "repository root not found");
        try (Stream<Path> s = Files.list(root.resolve("kernels"))) {
            // lowered for sm_80: kernels whose .target is newer (sm_90's bulk copies) are the backends' suite tests'
            return s.filter(Files::isDirectory).map(d -> d.resolve(d.getFileName() + ".ptx")).filter(Files::isRegularFile)
                    .filter(KernelSuiteLoweringTest::targetsAtMostSm80).sorted().toList();
        }
    }

    static boolean targetsAtMostSm80(Path ptx) {
        try (Stream<String> lines = Files.lines(ptx)) {
            return lines.map(String::strip).filter(l -> l.startsWith(".target")).findFirst()
                    .map(l -> l.replaceAll("[^0-9]", "")).map(n -> n.isEmpty() || Integer.parseInt(n) <= 80).orElse(true);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The outcome of lowering one file: the module, or the unsupported-feature message. */
    record Outcome(OriModule module, String unsupported) {
    }

    static Outcome lower(Path file, Target target) throws IOException, CompilationException {
        String text = Files.readString(file);
        PtxFrontEnd fe = TestFrontEnds.of(target);
        try {
            return new Outcome(fe.check(file.getFileName().toString(), text).lower(), null);
        } catch (UnsupportedFeatureException e) {
            String msg = e.diagnostics().get(0).message();
            assertTrue(msg.startsWith("Instruction '") || msg.startsWith("Variable '"), file + ": " + msg);
            return new Outcome(null, msg);
        }
    }

    /** "Instruction 'ld.global.nc.v4.f32' not yet ..." → "ld" (the first word of the name). */
    static String missing(String msg) {
        int q = msg.indexOf('\'');
        String name = msg.substring(q + 1, msg.indexOf('\'', q + 1));
        return name.contains(".") ? name.substring(0, name.indexOf('.')) : name;
    }

    @Test
    void everySuiteKernelLowersVerifiesAndAssembles() throws Exception {
        NaiveSass sass = new NaiveSass();
        int lowered = 0;
        int instructions = 0;
        Map<String, Integer> missing = new TreeMap<>();
        List<String> problems = new ArrayList<>();
        List<String> gaps = new ArrayList<>();
        List<Path> files = kernelFiles();
        for (Path f : files) {
            Outcome o;
            try {
                o = lower(f, Target.of("sm_80"));
            } catch (RuntimeException e) {
                StackTraceElement[] st = e.getStackTrace();
                problems.add(f.getFileName() + ": " + e + (st.length > 2 ? " at " + st[0] + " / " + st[1] + " / " + st[2] : ""));
                continue;
            }
            if (o.module() == null) {
                missing.merge(missing(o.unsupported()), 1, Integer::sum);
                problems.add(f.getFileName() + ": unsupported: " + o.unsupported());
                continue;
            }
            lowered++;
            for (OriFunction fn : o.module().functions()) {
                instructions += fn.body().instructionCount();
                for (String p : IrVerifier.verify(fn.name(), fn.body())) {
                    problems.add(f.getFileName() + ": " + p);
                }
                for (String p : sass.check(fn)) {
                    if (NaiveSass.tableGap(p)) {
                        gaps.add(f.getFileName() + ": " + p);
                    } else {
                        problems.add(f.getFileName() + ": " + p);
                    }
                }
            }
        }
        System.out.println("kernel suite: " + lowered + "/" + files.size() + " files lowered (" + instructions
                + " Ori instructions); unsupported by instruction: " + missing);
        System.out.println(gaps.size() + " instructions hit SASS-table gaps (forms learnt with fixed registers):");
        gaps.stream().limit(10).forEach(g -> System.out.println("  " + g));
        problems.stream().limit(60).forEach(System.out::println);
        assertEquals(List.of(), problems.stream().limit(20).toList(), problems.size() + " problems");
        List<KernelCase> kernels = new ArrayList<>(KernelSuite.all());
        kernels.addAll(KernelSuite.standalone());
        assertEquals(kernels.stream().filter(k -> k.minSm() <= 80).map(k -> k.name() + ".ptx").sorted().toList(),
                files.stream().map(f -> f.getFileName().toString()).toList(), "one file per suite kernel, each lowered");
        assertEquals(files.size(), lowered);
    }
}
