package org.jptxas.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.jptxas.cubin.Cubin;
import org.jptxas.cubin.CubinFormatException;
import org.jptxas.cubin.dump.ElfDump;
import org.jptxas.cubin.dump.SassDump;
import org.jptxas.spi.BackendRegistry;
import org.jptxas.spi.TargetDescription;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The {@code jcuobjdump} command: a cuobjdump-compatible view of cubins through jptxas's cubin model. {@code -elf}
 * prints the ELF contents as {@code cuobjdump -elf} does; {@code --rewrite OUT} reads a cubin and writes it back
 * through the model (byte-identical for every ptxas cubin); {@code -sass} disassembles the code with the SASS tables.
 * Every failure is one line and exit code 255.
 */
@Command(name = "jcuobjdump", sortOptions = false, usageHelpWidth = 100,
        description = "jcuobjdump: dump cubins (CUDA ELF) the way cuobjdump does, through the jptxas cubin model.")
final class JcuobjdumpCommand {
    static final String TOOL = "jcuobjdump";
    static final int FAILURE = 255;

    @Parameters(paramLabel = "<file>", description = "Cubin files.")
    List<String> inputs = new ArrayList<>();

    @Option(names = {"--dump-elf", "-elf"}, description = "Dump ELF object sections, symbols, attributes and relocations.")
    boolean elf;

    @Option(names = {"--dump-sass", "-sass"}, description = "Dump the SASS code of each function (sm_75 ... sm_90).")
    boolean sass;

    @Option(names = "--rewrite", paramLabel = "<file>",
            description = "Read the (single) input cubin and write it back through the cubin model to <file>.")
    String rewrite;

    @Option(names = {"--help", "-h"}, usageHelp = true, description = "Print this help.")
    boolean help;

    private final PrintWriter out;
    private final PrintWriter err;
    private final Path workDir;
    private final Supplier<BackendRegistry> backends;

    JcuobjdumpCommand(PrintWriter out, PrintWriter err, Path workDir) {
        this(out, err, workDir, InstalledBackends::ofEnvironment);
    }

    /** With {@code backends}: a caller that runs many dumps in one process discovers the backends once. */
    JcuobjdumpCommand(PrintWriter out, PrintWriter err, Path workDir, Supplier<BackendRegistry> backends) {
        this.out = out;
        this.err = err;
        this.workDir = workDir;
        this.backends = backends;
    }

    int run(String... args) {
        try {
            return runUnchecked(args);
        } catch (RuntimeException e) {
            // A bug, not an input problem: still one line, never a stack trace.
            return fatal("internal error: " + e);
        } finally {
            out.flush();
            err.flush();
        }
    }

    private int runUnchecked(String... args) {
        CommandLine cl = new CommandLine(this);
        try {
            cl.parseArgs(args);
        } catch (CommandLine.ParameterException e) {
            return fatal(e.getMessage());
        }
        if (help) {
            cl.usage(out);
            return 0;
        }
        if (inputs.isEmpty()) {
            return fatal("No input file specified");
        }
        if (rewrite != null && inputs.size() != 1) {
            return fatal("--rewrite takes exactly one input file");
        }
        if (!elf && !sass && rewrite == null) {
            elf = true;
        }
        for (String input : inputs) {
            Path path = workDir.resolve(input);
            byte[] bytes;
            try {
                bytes = Files.readAllBytes(path);
            } catch (NoSuchFileException e) {
                return fatal("Could not open input file '" + input + "'");
            } catch (IOException e) {
                return fatal("Could not read input file '" + input + "': " + e.getMessage());
            }
            Cubin cubin;
            try {
                cubin = Cubin.read(bytes);
                if (elf) {
                    out.print(ElfDump.print(cubin));
                }
            } catch (CubinFormatException e) {
                return fatal("Malformed cubin '" + input + "': " + e.getMessage());
            }
            if (sass) {
                BackendRegistry installed = backends.get();
                Optional<TargetDescription> target =
                        InstalledBackends.withTables(installed, "sm_" + cubin.sm());
                if (target.isEmpty()) {
                    return fatal("disassembly of sm_" + cubin.sm() + " code is not supported (the installed backends"
                            + " have SASS tables for " + InstalledBackends.readable(installed) + ")");
                }
                out.print(SassDump.print(cubin, target.get().isa()));
            }
            if (rewrite != null) {
                try {
                    AtomicFiles.write(workDir.resolve(rewrite), cubin.write());
                } catch (IOException e) {
                    return fatal("Could not write output file '" + rewrite + "': " + e.getMessage());
                }
            }
        }
        return 0;
    }

    private int fatal(String message) {
        err.println(TOOL + " fatal   : " + message);
        return FAILURE;
    }
}
