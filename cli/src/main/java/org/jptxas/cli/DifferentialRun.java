package org.jptxas.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.exec.ExecutionLimits;
import org.jptxas.simulator.exec.Launch;
import org.jptxas.simulator.exec.LaunchException;
import org.jptxas.simulator.exec.LaunchResult;
import org.jptxas.simulator.launch.LaunchSpec;
import org.jptxas.simulator.ptx.ProgramException;
import org.jptxas.simulator.ptx.PtxInterpreter;
import org.jptxas.simulator.sass.SassEmulator;

/**
 * {@code jptxas-run --differential}: one launch of a PTX kernel through the PTX interpreter, through the SASS emulator
 * on ptxas's cubin and through the SASS emulator on jptxas's cubin; every buffer compared pairwise. Exit 0 only when
 * every leg completed without a fault (and, with strict hazards, without hazards) and all agree. The command refuses
 * to start without ptxas, so every run compares three legs.
 */
final class DifferentialRun {
    /** One leg's outcome: its launch after the run, or why it failed. */
    private record Leg(String name, Launch launch, LaunchResult result, String failure, boolean hazardFault) {
        boolean completed() {
            return failure == null && result != null && result.completed();
        }
    }

    private final PrintWriter out;
    private final Path workDir;
    private final Target target;
    private final LaunchSpec spec;
    private final ExecutionLimits limits;
    private final JptxasRunCommand.Comparisons comparisons;
    private final boolean strictHazards;
    private final boolean strictConvergence;

    DifferentialRun(PrintWriter out, Path workDir, Target target, LaunchSpec spec, ExecutionLimits limits,
                    JptxasRunCommand.Comparisons comparisons, boolean strictHazards, boolean strictConvergence) {
        this.out = out;
        this.workDir = workDir;
        this.target = target;
        this.spec = spec;
        this.limits = limits;
        this.comparisons = comparisons;
        this.strictHazards = strictHazards;
        this.strictConvergence = strictConvergence;
    }

    int run(Path ptx, String displayName, Path ptxas) throws JptxasRunCommand.Fatal {
        byte[] text;
        try {
            text = Files.readAllBytes(ptx);
        } catch (IOException e) {
            throw new JptxasRunCommand.Fatal("Input file '" + displayName + "' could not be read: " + e.getMessage());
        }
        boolean elf = text.length >= 4 && text[0] == 0x7f && text[1] == 'E' && text[2] == 'L' && text[3] == 'F';
        if (elf || displayName.endsWith(".cubin")) {
            throw new JptxasRunCommand.Fatal("--differential needs a PTX kernel, not a cubin (" + displayName + ")");
        }
        Path tmp;
        try {
            tmp = Files.createTempDirectory("jptxas-run-differential");
        } catch (IOException e) {
            throw new JptxasRunCommand.Fatal("cannot create a temporary folder: " + e.getMessage());
        }
        try {
            out.printf("%s --differential: %s on %s, grid %s, block %s%n", JptxasRunCommand.TOOL, displayName,
                    target.name(), spec.grid(), spec.block());
            List<Leg> legs = new ArrayList<>();
            legs.add(interpreterLeg(ptx, text));
            legs.add(ptxasLeg(ptx, ptxas, tmp));
            legs.add(jptxasLeg(ptx, tmp));
            return compareLegs(legs);
        } finally {
            deleteTree(tmp);
        }
    }

    private Launch prepare() throws JptxasRunCommand.Fatal {
        try {
            return Launch.prepare(target, spec);
        } catch (LaunchException e) {
            throw new JptxasRunCommand.Fatal(e.getMessage());
        }
    }

    private Leg interpreterLeg(Path ptx, byte[] text) throws JptxasRunCommand.Fatal {
        String name = "(a) PTX interpreter";
        Launch launch = prepare();
        try {
            PtxInterpreter interpreter = PtxInterpreter.load(ptx.getFileName().toString(), new String(text, StandardCharsets.UTF_8));
            LaunchResult r = interpreter.execute(launch, limits);
            printResult(name, r);
            return new Leg(name, launch, r, null, false);
        } catch (ProgramException | LaunchException e) {
            return failed(name, e.getMessage());
        }
    }

    private Leg ptxasLeg(Path ptx, Path ptxas, Path tmp) throws JptxasRunCommand.Fatal {
        String name = "(b) SASS emulator on ptxas's cubin";
        Path cubin = tmp.resolve("ptxas.cubin");
        List<String> command = List.of(ptxas.toString(), "-arch=" + target.name(), "-o", cubin.toString(),
                ptx.toAbsolutePath().toString());
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            byte[] log = p.getInputStream().readAllBytes();
            if (!p.waitFor(10, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                return failed(name, "ptxas did not finish within 10 minutes");
            }
            if (p.exitValue() != 0 || !Files.isRegularFile(cubin)) {
                return failed(name, ptxas + " failed (exit " + p.exitValue() + "): "
                        + new String(log, StandardCharsets.UTF_8).strip());
            }
        } catch (IOException e) {
            return failed(name, "cannot run " + ptxas + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return failed(name, "interrupted while running ptxas");
        }
        return emulatorLeg(name + " (" + ptxas + ")", cubin);
    }

    private Leg jptxasLeg(Path ptx, Path tmp) throws JptxasRunCommand.Fatal {
        String name = "(c) SASS emulator on jptxas's cubin";
        Path cubin = tmp.resolve("jptxas.cubin");
        StringWriter log = new StringWriter();
        PrintWriter w = new PrintWriter(log);
        int rc = new JptxasCommand(w, w, System.getenv(), System.getProperty("jptxas.home"), workDir)
                .run(new String[] {"-arch=" + target.name(), "-o", cubin.toString(), ptx.toAbsolutePath().toString()});
        w.flush();
        if (rc != 0 || !Files.isRegularFile(cubin)) {
            return failed(name, "jptxas failed (exit " + rc + "): " + log.toString().strip());
        }
        return emulatorLeg(name, cubin);
    }

    private Leg emulatorLeg(String name, Path cubin) throws JptxasRunCommand.Fatal {
        SassEmulator emulator;
        try {
            emulator = SassEmulator.fromCubin(InstalledBackends.withTables(InstalledBackends.ofEnvironment(),
                    target.name()).orElseThrow(() -> new IllegalArgumentException("no installed backend reads "
                            + target.name() + " code")), Files.readAllBytes(cubin));
            if (strictConvergence) {
                emulator = emulator.withStrictConvergence(true);
            }
        } catch (IOException | RuntimeException e) {
            return failed(name, "cannot load the cubin: " + e.getMessage());
        }
        Launch launch = prepare();
        SassEmulator.TimedResult timed;
        try {
            timed = emulator.executeTimed(launch, limits);
        } catch (LaunchException e) {
            return failed(name, e.getMessage());
        }
        printResult(name, timed.result());
        boolean hazardFault = JptxasRunCommand.printHazards(out, "      ", emulator, timed.timing(), strictHazards);
        if (hazardFault) {
            out.println("      FAULT: hazards are fatal with --strict-hazards");
        }
        return new Leg(name, launch, timed.result(), null, hazardFault);
    }

    private void printResult(String name, LaunchResult r) {
        out.printf("  %s: %s, %d warp instructions, %d thread instructions%n", name,
                r.completed() ? "completed" : "FAULT: " + r.fault().orElseThrow().describe(), r.warpInstructions(),
                r.threadInstructions());
    }

    private Leg failed(String name, String why) {
        out.printf("  %s: FAILED: %s%n", name, why);
        return new Leg(name, null, null, why, false);
    }

    /** Pairwise comparison of the completed legs; the exit code of the whole run. */
    private int compareLegs(List<Leg> legs) throws JptxasRunCommand.Fatal {
        boolean ok = legs.stream().allMatch(l -> l.completed() && !l.hazardFault());
        List<Leg> done = legs.stream().filter(Leg::completed).toList();
        out.println("  buffers compared as: " + comparisons);
        for (int i = 0; i < done.size(); i++) {
            for (int j = i + 1; j < done.size(); j++) {
                Leg a = done.get(i), b = done.get(j);
                String pair = letter(a) + " vs " + letter(b);
                if (comparisons.compare(a.launch(), b.launch(), pair + " ", out)) {
                    out.println("  " + pair + ": every buffer agrees");
                } else {
                    ok = false;
                }
            }
        }
        if (done.size() < 2) {
            out.println("  fewer than two legs completed: nothing to compare");
            ok = false;
        }
        if (!ok) {
            out.println("  DIFFERENTIAL FAILED: " + (legs.size() - done.size()) + " of " + legs.size()
                    + " legs did not complete; see above");
            out.println("  no output files written");
            return JptxasRunCommand.FAULT;
        }
        try {
            for (Path p : done.get(0).launch().writeOutputs()) {
                out.println("  wrote " + p);
            }
        } catch (LaunchException e) {
            throw new JptxasRunCommand.Fatal(e.getMessage());
        }
        out.println("  differential: " + done.size() + " legs agree");
        return 0;
    }

    private static String letter(Leg l) {
        return l.name().substring(0, 3);
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            // a temporary folder left behind is harmless
        }
    }
}
