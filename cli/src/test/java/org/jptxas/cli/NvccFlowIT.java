package org.jptxas.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.Processes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * nvcc's builds with jptxas in ptxas's place: {@code nvcc --dryrun} lists the build's steps; each test replays them as
 * a shell script, once as listed (ptxas 13) and once with the ptxas step calling the distribution's launcher through a
 * link named {@code ptxas}, and checks that the rest of NVIDIA's toolchain takes jptxas's output: {@code -cubin} (the
 * cubin goes into a fatbinary and through nvlink 13), {@code -c} (fatbinary and the host compiler build the object,
 * nvlink 13 takes it) and {@code -c -rdc=true} (two objects, a kernel and the device function it calls, which nvlink
 * 13 links). nvlink 12.5 refuses nvcc 13's objects whatever made their device code (a compressed fatbinary it cannot
 * read; uncompressed, "abi does not match"): it must give jptxas's objects exactly the verdict it gives ptxas 13's.
 * Skipped where nvcc 13 or a host compiler is missing; nvlink 13 and 12.5 are CI oracles.
 */
class NvccFlowIT {
    @TempDir
    static Path tmp;

    static PtxasLink link;
    static Path ptxasLink;
    static Map<String, String> env;
    static Path nvcc;

    static final String KERNEL = """
            __device__ float twice(float x) { return 2.0f * x; }
            __global__ void scale(float *y, const float *x, int n) {
              int i = blockIdx.x * blockDim.x + threadIdx.x;
              if (i < n) y[i] = twice(x[i]) + 1.0f;
            }
            """;
    static final String CALLER = """
            extern __device__ float twice(float x);
            __global__ void scale(float *y, const float *x, int n) {
              int i = blockIdx.x * blockDim.x + threadIdx.x;
              if (i < n) y[i] = twice(x[i]) + 1.0f;
            }
            """;
    static final String CALLEE = """
            __device__ float twice(float x) { return 2.0f * x; }
            """;

    /** What jptxas writes into {@code .note.nv.tkinfo} (ptxas writes its own name and release there). */
    static final String JPTXAS_MARK = "jptxas, an open PTX assembler";

    @BeforeAll
    static void setUp() throws IOException {
        nvcc = Oracles.nvcc13().orElse(null);
        Assumptions.assumeTrue(nvcc != null, "nvcc 13 not installed");
        Assumptions.assumeTrue(Processes.run(List.of("gcc", "--version"), tmp).exitCode() == 0, "no gcc for nvcc");
        link = PtxasLink.create(tmp);
        ptxasLink = link.ptxas();
        env = link.env();
    }

    @AfterAll
    static void stopServer() throws IOException {
        if (link != null) {
            link.stopServers();
        }
    }

    @Test
    void cubinGoesIntoAFatbinaryAndThroughNvlink() throws Exception {
        Path nvlink13 = Oracles.assumeNvlink13();
        for (boolean ours : new boolean[] {false, true}) {
            Path dir = build(ours, "cubin", Map.of("k.cu", KERNEL), List.of("-arch=sm_80", "-cubin", "k.cu", "-o", "k.cubin"));
            assertEquals(ours, made(dir.resolve("k.cubin")), "the ptxas step ran " + (ours ? "jptxas" : "ptxas"));
            ok(List.of(fatbinary().toString(), "--create=k.fatbin", "-64", "--image3=kind=elf,sm=80,file=k.cubin"),
                    dir, "fatbinary");
            ok(List.of(nvlink13.toString(), "-arch=sm_80", "k.cubin", "-o", "linked.cubin"), dir, "nvlink 13");
        }
    }

    @Test
    void wholeProgramObjectBuildsAndLinks() throws Exception {
        Path nvlink13 = Oracles.assumeNvlink13();
        for (boolean ours : new boolean[] {false, true}) {
            Path dir = build(ours, "c", Map.of("k.cu", KERNEL), List.of("-arch=sm_80", "-c", "k.cu", "-o", "k.o"));
            assertEquals(ours, made(dir.resolve("kd/k.sm_80.cubin")), "the ptxas step ran " + (ours ? "jptxas" : "ptxas"));
            assertTrue(Files.size(dir.resolve("k.o")) > 0, "fatbinary and gcc built the object");
            ok(List.of(nvlink13.toString(), "-arch=sm_80", "k.o", "-o", "linked.cubin"), dir, "nvlink 13");
        }
    }

    @Test
    void separateCompilationObjectsLink() throws Exception {
        Path nvlink13 = Oracles.assumeNvlink13();
        Path nvlink125 = Oracles.assumeNvlink();
        Processes.Result[] verdict125 = new Processes.Result[2];
        for (boolean ours : new boolean[] {false, true}) {
            Path dir = build(ours, "rdc", Map.of("a.cu", CALLER, "b.cu", CALLEE),
                    List.of("-arch=sm_80", "-c", "-rdc=true", "a.cu", "-o", "a.o"),
                    List.of("-arch=sm_80", "-c", "-rdc=true", "b.cu", "-o", "b.o"));
            assertEquals(ours, made(dir.resolve("kd/a.sm_80.cubin")));
            assertEquals(ours, made(dir.resolve("kd/b.sm_80.cubin")));
            ok(List.of(nvlink13.toString(), "-arch=sm_80", "a.o", "b.o", "-o", "linked.cubin"), dir, "nvlink 13");
            String linked = new String(Files.readAllBytes(dir.resolve("linked.cubin")), StandardCharsets.ISO_8859_1);
            assertTrue(linked.contains("scale"), "the kernel is in the linked cubin");
            verdict125[ours ? 1 : 0] = Processes.run(
                    List.of(nvlink125.toString(), "-arch=sm_80", "a.o", "b.o", "-o", "linked125.cubin"), dir, env, 300);
        }
        assertEquals(verdict125[0].exitCode(), verdict125[1].exitCode(), "nvlink 12.5: ptxas's objects "
                + verdict125[0].stderr() + " / jptxas's " + verdict125[1].stderr());
        assertEquals(verdict125[0].stderr(), verdict125[1].stderr(), "nvlink 12.5's messages");
    }

    /**
     * Writes {@code sources} into a fresh folder and replays each nvcc command line's dry run there, with the ptxas
     * step as listed or ({@code ours}) calling jptxas; the folder.
     */
    @SafeVarargs
    private static Path build(boolean ours, String name, Map<String, String> sources, List<String>... nvccLines)
            throws IOException {
        Path dir = Files.createDirectory(tmp.resolve(name + (ours ? "-jptxas" : "-ptxas")));
        Files.createDirectory(dir.resolve("kd"));
        for (var e : sources.entrySet()) {
            Files.writeString(dir.resolve(e.getKey()), e.getValue());
        }
        for (List<String> args : nvccLines) {
            List<String> cmd = new ArrayList<>(List.of(nvcc.toString(), "--dryrun", "--keep", "--keep-dir", "kd"));
            cmd.addAll(args);
            Processes.Result dry = Processes.run(cmd, dir, env, 300);
            assertEquals(0, dry.exitCode(), dry.stderr());
            Path script = dir.resolve("replay-" + args.get(args.size() - 1) + ".sh");
            Files.writeString(script, replay(dry.stderr(), ours ? ptxasLink : null));
            Processes.Result run = Processes.run(List.of("bash", script.toString()), dir, env, 600);
            assertEquals(0, run.exitCode(), "replay of nvcc " + args + " (" + (ours ? "jptxas" : "ptxas") + "):\n"
                    + run.stdout() + run.stderr());
        }
        return dir;
    }

    private static final Pattern ASSIGNMENT = Pattern.compile("([A-Za-z_][A-Za-z0-9_]*)=(.*)");
    private static final Pattern PLAIN = Pattern.compile("[^\\s\"'$`\\\\]*");

    /**
     * The steps of {@code nvcc --dryrun}'s listing ({@code #$ } lines) as a bash script: plain variable settings
     * ({@code PATH}, {@code CICC_PATH}, ...) exported, the rest (lists nvcc has already expanded into the commands)
     * left out; the one ptxas step calling {@code ptxas} when not null.
     */
    static String replay(String listing, Path ptxas) {
        StringBuilder sh = new StringBuilder("set -e\n");
        int ptxasSteps = 0;
        for (String line : listing.split("\n")) {
            if (!line.startsWith("#$ ")) {
                continue;
            }
            String step = line.substring(3).strip();
            var a = ASSIGNMENT.matcher(step);
            if (a.matches()) {
                if (PLAIN.matcher(a.group(2).strip()).matches()) {
                    sh.append("export ").append(a.group(1)).append("='").append(a.group(2).strip()).append("'\n");
                }
                continue;
            }
            if (step.startsWith("ptxas ")) {
                ptxasSteps++;
                if (ptxas != null) {
                    step = "'" + ptxas + "' " + step.substring("ptxas ".length());
                }
            }
            sh.append(step).append('\n');
        }
        assertEquals(1, ptxasSteps, "one ptxas step in nvcc's listing:\n" + listing);
        return sh.toString();
    }

    /** Whether jptxas made the cubin (its tool note names it). */
    private static boolean made(Path cubin) throws IOException {
        return new String(Files.readAllBytes(cubin), StandardCharsets.ISO_8859_1).contains(JPTXAS_MARK);
    }

    private static Path fatbinary() {
        return nvcc.resolveSibling("fatbinary");
    }

    private static void ok(List<String> cmd, Path dir, String what) {
        Processes.Result r = Processes.run(cmd, dir, env, 300);
        assertEquals(0, r.exitCode(), what + " refused " + dir.getFileName() + ": " + r.stdout() + r.stderr());
        assertFalse(r.stderr().contains("error"), what + ": " + r.stderr());
    }
}
