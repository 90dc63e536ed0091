package org.jptxas.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import org.jptxas.cli.JnvdisasmRunner;
import org.jptxas.frontend.ptx.PtxFrontEnd;
import org.jptxas.spi.IrObserver;
import org.jptxas.isel.codegen.ModuleCodegen;
import org.jptxas.spi.BackendRegistry;
import org.jptxas.spi.CompileOptions;
import org.jptxas.isel.codegen.FamilyBackend;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.OriModule;
import org.jptxas.ori.target.Target;
import org.jptxas.testing.OracleToolRuns;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.Processes;
import org.jptxas.testing.gate.Gate;
import org.jptxas.testing.kernels.KernelSuite;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jptxas.frontend.ptx.TestFrontEnds;
import org.jptxas.simulator.suite.SuiteRun;

/**
 * NVIDIA's tools accept what jptxas writes, for every suite kernel on every SM it supports (sm_75 … sm_90):
 * nvdisasm 12.5 disassembles each cubin to exactly our {@code --out-sass} instruction lines and to bin/jnvdisasm's,
 * cuobjdump 12.5 {@code -elf} reads it, and the relocatable ({@code -c}) object links with nvlink: nvlink 13 for
 * ptxas 13's object format, nvlink 12.5 for the CUDA 12 one. Every pair must be compared; a compiler crash fails
 * by name. Oracle results are cached by input bytes ({@link OracleToolRuns}).
 */
class OracleAcceptanceTest {
    private static final BackendRegistry REGISTRY = BackendRegistry.discover(OracleAcceptanceTest.class.getClassLoader());

    /** The compiler under test: jptxas in-process ({@link #compilePtx}), or a planted one in the fault tests. */
    @FunctionalInterface
    interface Compile {
        ModuleCodegen.Result compile(Path ptx, String arch, boolean relocatable, boolean cuda12) throws Exception;
    }

    /** jptxas as bin/jptxas runs it: {@code -c} lowers for separate compilation. */
    static final Compile JPTXAS = (ptx, arch, relocatable, cuda12) -> compilePtx(REGISTRY, ptx, arch, relocatable,
            cuda12, relocatable);

    /**
     * Compiles one PTX file in-process with -O3 as bin/jptxas does: the cubin and its SASS text ({@code --out-sass});
     * {@code relocatable} is {@code -c}, {@code cuda12} the CUDA 12 (ABI v7) object format nvlink 12.5 reads.
     */
    static ModuleCodegen.Result compilePtx(BackendRegistry registry, Path ptx, String arch, boolean relocatable,
            boolean cuda12) throws CompilationException, java.io.IOException {
        return compilePtx(registry, ptx, arch, relocatable, cuda12, false);
    }

    /**
     * As {@link #compilePtx(BackendRegistry, Path, String, boolean, boolean)}; {@code separate} lowers as bin/jptxas -c
     * does (exported device functions kept, calls to {@code .extern} functions left to the linker).
     */
    static ModuleCodegen.Result compilePtx(BackendRegistry registry, Path ptx, String arch, boolean relocatable,
            boolean cuda12, boolean separate) throws CompilationException, java.io.IOException {
        Target target = Target.of(arch);
        PtxFrontEnd.CheckedModule checked = TestFrontEnds.of(target).check(ptx.getFileName().toString(),
                Files.readString(ptx, java.nio.charset.StandardCharsets.ISO_8859_1));
        OriModule m = separate ? checked.lowerRelocatable() : checked.lower();
        FamilyBackend backend;
        try {
            backend = (FamilyBackend) registry.forTarget(target);
        } catch (org.jptxas.spi.BackendSelectionException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
        CompileOptions o = new CompileOptions(3, OptionalInt.empty(), relocatable, false, false, false, false);
        return new ModuleCodegen(backend.requirePipeline(target)).compile(m, target, o, IrObserver.NONE, cuda12);
    }

    /** The instruction and label lines of a {@code nvdisasm -c} listing (or of ours). */
    static List<String> codeLines(String listing) {
        List<String> out = new ArrayList<>();
        for (String l : listing.split("\n")) {
            if (l.matches("\\s+/\\*[0-9a-f]{4}\\*/.*") || l.matches("\\.L_x_\\d+:")) {
                out.add(l.stripTrailing());
            }
        }
        return out;
    }

    /**
     * The read-back gate: each pair's cubin ({@code compile}, executable) is read by {@code nvdisasm -c} as the
     * instruction and label lines we printed and jnvdisasm prints, and by {@code cuobjdump -elf} without complaint.
     */
    static Gate readBack(List<SuiteRun.Pair> pairs, Compile compile, Path nvdisasm, Path cuobjdump, Path dir) {
        Gate gate = Gate.named("nvdisasm and cuobjdump read our cubins");
        pairs.parallelStream().forEach(p -> {
            try {
                ModuleCodegen.Result r = compile.compile(p.kernel().ptx(), p.arch(), false, false);
                Path cubin = dir.resolve(p.kernel().name() + "-" + p.arch() + ".cubin");
                Files.write(cubin, r.cubin());
                List<String> problems = new ArrayList<>();
                Processes.Result dis = OracleToolRuns.run(nvdisasm, List.of("-c"), cubin, dir, true);
                if (dis.exitCode() != 0) {
                    problems.add("nvdisasm refuses it: " + dis.stderr().strip());
                } else {
                    List<String> theirs = codeLines(dis.stdout());
                    List<String> printed = codeLines(r.sass());
                    List<String> jnvdisasm = codeLines(JnvdisasmRunner.listing(cubin));
                    if (theirs.isEmpty()) {
                        problems.add("nvdisasm lists no code");
                    }
                    if (!theirs.equals(printed)) {
                        problems.add("nvdisasm text differs from --out-sass:\n" + firstDifference(theirs, printed));
                    }
                    if (!theirs.equals(jnvdisasm)) {
                        problems.add("jnvdisasm text differs from nvdisasm:\n" + firstDifference(theirs, jnvdisasm));
                    }
                }
                Processes.Result elf = OracleToolRuns.run(cuobjdump, List.of("-elf"), cubin, dir, false);
                if (elf.exitCode() != 0) {
                    problems.add("cuobjdump -elf refuses it: " + elf.stderr().strip());
                }
                if (problems.isEmpty()) {
                    gate.pass();
                } else {
                    gate.differ(p.key(), String.join("\n", problems));
                }
            } catch (Exception | StackOverflowError e) {
                gate.crash(p.key(), e);
            }
        });
        return gate;
    }

    /**
     * The link gate: each pair's relocatable object links alone, in ptxas 13's format with {@code nvlink13} and in
     * the CUDA 12 format with {@code nvlink125}: two items per pair.
     */
    static Gate links(List<SuiteRun.Pair> pairs, Compile compile, Path nvlink13, Path nvlink125, Path dir) {
        Gate gate = Gate.named("nvlink links our -c objects");
        pairs.parallelStream().forEach(p -> {
            for (boolean cuda12 : new boolean[] {false, true}) {
                String key = p.key() + (cuda12 ? " CUDA 12 (nvlink 12.5)" : " (nvlink 13)");
                try {
                    ModuleCodegen.Result r = compile.compile(p.kernel().ptx(), p.arch(), true, cuda12);
                    Path obj = dir.resolve(p.kernel().name() + "-" + p.arch() + (cuda12 ? "-v7" : "") + ".o");
                    Files.write(obj, r.cubin());
                    Path linker = cuda12 ? nvlink125 : nvlink13;
                    // only the verdict is kept: the output goes nowhere, so the cached run's key is the object alone
                    Processes.Result link = OracleToolRuns.run(linker, List.of("-arch=" + p.arch(), "-o", "/dev/null"),
                            obj, dir, false);
                    if (link.exitCode() == 0) {
                        gate.pass();
                    } else {
                        gate.differ(key, "refused: " + link.stderr().strip());
                    }
                } catch (Exception | StackOverflowError e) {
                    gate.crash(key, e);
                }
            }
        });
        return gate;
    }

    @Test
    @Tag("slow")
    void nvdisasmAndCuobjdumpAcceptOurCubins(@TempDir Path dir) {
        Path nvdisasm = Oracles.assumeNvdisasm();
        Path cuobjdump = Oracles.assumeCuobjdump();
        List<SuiteRun.Pair> pairs = SuiteRun.pairs(KernelSuite.all());
        Gate gate = readBack(pairs, JPTXAS, nvdisasm, cuobjdump, dir);
        System.out.println(gate.summary());
        gate.verify(pairs.size());
    }

    /**
     * sm_90 included: nvlink 13 refused our sm_90 objects ("must be recompiled with toolkit >= Cuda 12.0") while the
     * cubin writer left out {@code .debug_frame}, which nvlink 13 requires of sm_90 objects; the writer has written
     * it since, and this gate keeps it so.
     */
    @Test
    @Tag("slow")
    void relocatableObjectsLinkWithNvlink(@TempDir Path dir) {
        Path nvlink13 = Oracles.assumeNvlink13();
        Path nvlink125 = Oracles.assumeNvlink();
        List<SuiteRun.Pair> pairs = SuiteRun.pairs(KernelSuite.all());
        Gate gate = links(pairs, JPTXAS, nvlink13, nvlink125, dir);
        System.out.println(gate.summary());
        gate.verify(2 * pairs.size());
    }

    static String firstDifference(List<String> a, List<String> b) {
        for (int i = 0; i < Math.max(a.size(), b.size()); i++) {
            String x = i < a.size() ? a.get(i) : "<end>";
            String y = i < b.size() ? b.get(i) : "<end>";
            if (!x.equals(y)) {
                return "  nvdisasm: " + x + "\n  jptxas:   " + y;
            }
        }
        assertEquals(a, b);
        return "";
    }
}
