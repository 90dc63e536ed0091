package org.jptxas.cli;

import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.jptxas.cubin.Cubin;
import org.jptxas.cubin.Section;
import org.jptxas.sass.SassIsa;
import org.jptxas.spi.BackendRegistry;
import org.jptxas.spi.TargetDescription;
import org.jptxas.sass.SassListing;
import org.jptxas.scheduler.hazard.Hazard;
import org.jptxas.scheduler.latency.LatencyModel;
import org.jptxas.scheduler.sass.ControlAgreement;
import org.jptxas.scheduler.sass.DecodedListing;
import org.jptxas.scheduler.sass.SassLine;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code jnvdisasm}: an nvdisasm-compatible disassembler for sm_75 ... sm_90a, driven by jptxas's SASS tables.
 * Input is a cubin (its {@code .text.*} sections) or, with {@code -b SMxx}, raw instruction bytes. Instruction lines
 * match nvdisasm 12.5's; {@code -hex} adds the encoding comments in nvdisasm's layout; {@code -ctrl} (ours) appends
 * the control-bit annotation the jptxas SASS assembler reads back.
 */
@Command(name = "jnvdisasm", mixinStandardHelpOptions = false, sortOptions = false,
        description = "Disassembles sm_75 ... sm_90a SASS from a cubin or a raw instruction binary, like nvdisasm.")
public final class JnvdisasmMain implements Callable<Integer> {
    @Option(names = {"-b", "--binary"}, paramLabel = "SMxy",
            description = "Input is a raw instruction binary for this SM: SM75, SM80, SM86, SM89, SM90, SM90a.")
    String binary;

    @Option(names = {"-hex", "--print-instruction-encoding"}, description = "Print the encoding after each instruction.")
    boolean hex;

    @Option(names = {"-c", "--print-code"}, description = "Only print code sections.")
    boolean codeOnly;

    @Option(names = {"-ctrl", "--print-control"}, description = "Append each instruction's control bits.")
    boolean control;

    @Option(names = "--check-hazards", description = "Instead of a listing, check the file's own control bits with"
            + " jptxas's latency model: list every hazard (read before its producer completes, WAR/WAW, scoreboard"
            + " reused while live); exit status 1 if there is any.")
    boolean checkHazards;

    @Option(names = "--recompute-control", description = "Instead of a listing, keep the instruction order,"
            + " recompute the control bits with jptxas's model and print how many stall counts and wait masks agree"
            + " with the file's.")
    boolean recomputeControl;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Print this help.")
    boolean help;

    @Parameters(arity = "1", paramLabel = "file", description = "The cubin or raw binary.")
    Path input;

    private final PrintWriter out;
    private final PrintWriter err;

    JnvdisasmMain(PrintWriter out, PrintWriter err) {
        this.out = out;
        this.err = err;
    }

    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), false);
        PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
        int rc = run(args, out, err);
        out.flush();
        System.exit(rc);
    }

    static int run(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cl = new CommandLine(new JnvdisasmMain(out, err));
        cl.setOut(out);
        cl.setErr(err);
        cl.setParameterExceptionHandler((ex, a) -> {
            err.println("jnvdisasm fatal   : " + ex.getMessage());
            return 1;
        });
        cl.setExecutionExceptionHandler((ex, c, r) -> {
            err.println("jnvdisasm fatal   : " + ex.getMessage());
            return 1;
        });
        return cl.execute(args);
    }

    @Override
    public Integer call() {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(input);
        } catch (NoSuchFileException e) {
            err.println("jnvdisasm fatal   : Cannot open object file " + input);
            return 1;
        } catch (IOException e) {
            err.println("jnvdisasm fatal   : Cannot read " + input + ": " + e.getMessage());
            return 1;
        }
        if (checkHazards && recomputeControl) {
            err.println("jnvdisasm fatal   : --check-hazards and --recompute-control are exclusive");
            return 1;
        }
        if (checkHazards || recomputeControl) {
            return controlAnalysis(bytes);
        }
        return binary != null ? raw(bytes) : cubin(bytes);
    }

    /** {@code --check-hazards} and {@code --recompute-control}, on a cubin or (with {@code -b}) a raw binary. */
    private int controlAnalysis(byte[] bytes) {
        TargetDescription target;
        Map<String, List<SassLine>> functions;
        if (binary != null) {
            target = rawTarget();
            if (target == null || !rawSizeOk(bytes)) {
                return 1;
            }
            functions = Map.of(input.getFileName().toString(),
                    DecodedListing.lines(target.isa(), input.getFileName().toString(), bytes));
        } else {
            Cubin cubin = readCubin(bytes);
            if (cubin == null) {
                return 1;
            }
            target = cubinTarget(cubin);
            if (target == null) {
                return 1;
            }
            functions = DecodedListing.fromCubin(bytes, target.isa());
        }
        if (!target.codeGeneration()) {
            // targets the backend only decodes (Blackwell) have tables but no latency model fitted to ptxas yet
            err.println("jnvdisasm fatal   : " + target.target().name() + " code is not supported by --check-hazards"
                    + " and --recompute-control (its latency model is not calibrated yet; the listing is)");
            return 1;
        }
        String modelSm = target.target().name().replace("a", "");
        LatencyModel model = LatencyModel.of(target);
        boolean urInAddressBits = ControlAgreement.urInAddressBits(target);
        if (recomputeControl) {
            boolean debugCode = binary == null && DecodedListing.isDebug(bytes);
            out.println(ControlAgreement.compareAll(functions, model, urInAddressBits, debugCode).report(modelSm));
            return 0;
        }
        int hazards = 0;
        int instructions = 0;
        for (Map.Entry<String, List<SassLine>> f : functions.entrySet()) {
            instructions += f.getValue().size();
            for (Hazard h : ControlAgreement.checkHazards(f.getValue(), model, urInAddressBits)) {
                if (h.isError()) {
                    SassLine at = f.getValue().get(h.index());
                    out.printf("%s+0x%04x: %s: %s (%s)%n", f.getKey(), at.address(), h.kind(), h.detail(), at.text().strip());
                    hazards++;
                }
            }
        }
        out.println(modelSm + ": " + hazards + " hazard(s) in " + instructions + " instructions");
        return hazards == 0 ? 0 : 1;
    }

    /** The SM named by {@code -b} as {@code sm_XX}, or null after reporting an unsupported one. */
    /** The target {@code -b SMxx} names, when an installed backend has its SASS tables (else a fatal line). */
    private TargetDescription rawTarget() {
        String sm = binary.toLowerCase(Locale.ROOT);
        Optional<TargetDescription> d = sm.matches("sm\\d+[a-z]?")
                ? InstalledBackends.withTables(registry(), "sm_" + sm.substring(2)) : Optional.empty();
        if (d.isEmpty()) {
            err.println("jnvdisasm fatal   : Unsupported SM for -b: " + binary + " ("
                    + InstalledBackends.readable(registry()).replace("sm_", "SM") + ")");
            return null;
        }
        return d.get();
    }

    /** The target of a cubin's code, when an installed backend has its SASS tables (else a fatal line). */
    private TargetDescription cubinTarget(Cubin cubin) {
        String sm = "sm_" + cubin.sm();
        Optional<TargetDescription> d = InstalledBackends.withTables(registry(), sm);
        if (d.isEmpty()) {
            err.println("jnvdisasm fatal   : " + sm + " code is not supported (" + InstalledBackends.readable(registry())
                    + ")");
            return null;
        }
        return d.get();
    }

    private BackendRegistry registry;

    private BackendRegistry registry() {
        if (registry == null) {
            registry = InstalledBackends.ofEnvironment();
        }
        return registry;
    }

    private boolean rawSizeOk(byte[] bytes) {
        if (bytes.length % 16 != 0) {
            err.println("jnvdisasm fatal   : Raw binary size " + bytes.length + " is not a multiple of 16 bytes");
            return false;
        }
        return true;
    }

    private Cubin readCubin(byte[] bytes) {
        try {
            return Cubin.read(bytes);
        } catch (RuntimeException e) {
            err.println("jnvdisasm fatal   : " + input + " is not a cubin (" + e.getMessage() + "); use -b SMxy for raw"
                    + " binaries");
            return null;
        }
    }

    private int raw(byte[] bytes) {
        TargetDescription target = rawTarget();
        if (target == null || !rawSizeOk(bytes)) {
            return 1;
        }
        SassIsa isa = target.isa();
        String n = target.target().name().substring(3);
        String virtualSm = "EF_CUDA_SM" + n.replace("a", "");
        out.println("\t.headerflags\t@\"EF_CUDA_64BIT_ADDRESS " + (n.endsWith("a") ? "EF_CUDA_ACCELERATORS " : "")
                + virtualSm + " EF_CUDA_VIRTUAL_SM(" + virtualSm + ")\"");
        SassListing.Block b = new SassListing(isa, hex, control).render(bytes, 0, null);
        b.lines().forEach(out::println);
        return report(b.unknown());
    }

    private int cubin(byte[] bytes) {
        Cubin cubin = readCubin(bytes);
        if (cubin == null) {
            return 1;
        }
        TargetDescription target = cubinTarget(cubin);
        if (target == null) {
            return 1;
        }
        SassIsa isa = target.isa();
        NvdisasmRelocations relocations = new NvdisasmRelocations(cubin, NvdisasmSections.displayNames(cubin.symbols()));
        // nvdisasm aligns the encoding comments after the longest instruction of the whole file: measure first (and
        // learn the branch labels, which the labels of data relocations come after)
        int width = 0;
        SassListing measure = new SassListing(isa, false, control).labelsFrom(relocations.labelCount());
        Map<Integer, Map<Long, String>> branchLabels = new java.util.HashMap<>();
        for (Section s : cubin.textSections()) {
            SassListing.Block b = measure.render(s.data(), 0, s.functionName(), symbolsIn(cubin, s),
                    relocations.labelsIn(s), relocations.hook(s, isa), 0);
            width = Math.max(width, b.width());
            Map<Long, String> own = new java.util.HashMap<>();
            b.labels().forEach((a, l) -> {
                if (l.startsWith(".L_x_")) {
                    own.put(a, l);
                }
            });
            branchLabels.put(cubin.sectionIndex(s.name()), own);
        }
        // jump-table labels are numbered after the branch labels, the labels of data relocations after both
        NvdisasmJumpTables jumpTables = new NvdisasmJumpTables(cubin);
        int endLabels = relocations.dataLabels(jumpTables.number(measure.branchLabels(), branchLabels), branchLabels);
        int annotatedWidth = width;
        if (jumpTables.any() || relocations.anyNotes()) {
            // the encoding comments go after the longest annotated instruction too (indirect branches, relocated YIELDs)
            SassListing again = new SassListing(isa, false, control).labelsFrom(relocations.labelCount());
            for (Section s : cubin.textSections()) {
                annotatedWidth = Math.max(annotatedWidth, again.render(s.data(), 0, s.functionName(),
                        symbolsIn(cubin, s), relocations.labelsIn(s), relocations.hook(s, isa),
                        jumpTables.of(s).with(relocations.notes(s)), width, width).annotatedWidth());
            }
        }
        SassListing listing = new SassListing(isa, hex, control)
                .labelsFrom(relocations.labelCount())
                .endLabelsFrom(endLabels)
                .endLabelRanks(endLabelRanks(cubin));
        NvdisasmDirectives.fileHeader(cubin).forEach(out::println);
        int unknown = 0;
        NvdisasmSections data = new NvdisasmSections(cubin, relocations, jumpTables);
        for (Section s : cubin.sections()) {
            if (!codeOnly && NvdisasmSections.listed(s)) {
                // without -c, nvdisasm lists every other section too, in section order, as data
                out.println();
                out.println();
                data.block(s).forEach(out::println);
                continue;
            }
            if (!s.isText()) {
                continue;
            }
            String fn = s.functionName();
            java.util.Map<Long, String> internal = symbolsIn(cubin, s);
            SassListing.Block b = listing.render(s.data(), 0, fn, internal, relocations.labelsIn(s),
                    relocations.hook(s, isa), jumpTables.of(s).with(relocations.notes(s)), width, annotatedWidth);
            out.println();
            out.println();
            out.println(NvdisasmDirectives.banner(s.name()));
            NvdisasmDirectives.sectionHeader(cubin, s, b.endLabel()).forEach(out::println);
            java.util.Map<String, String> internalEnds = internalSymbolEnds(cubin, s, b.endLabel());
            for (String line : b.lines()) {
                if (line.endsWith(":") && internalEnds.containsKey(line.substring(0, line.length() - 1))) {
                    String name = line.substring(0, line.length() - 1);
                    int binding = bindingOf(cubin, s, name);
                    if (binding != org.jptxas.cubin.Symbol.STB_LOCAL) {
                        out.println(NvdisasmDirectives.directive(binding == org.jptxas.cubin.Symbol.STB_WEAK
                                ? ".weak" : ".global", name));
                    }
                    NvdisasmDirectives.typeAndSize(name, internalEnds.get(name)).forEach(out::println);
                }
                out.println(line);
            }
            unknown += b.unknown();
        }
        NvdisasmDirectives.undefinedSymbols(cubin).forEach(out::println);
        return report(unknown);
    }

    /** The binding of function symbol {@code name} in {@code s}. */
    private static int bindingOf(Cubin cubin, Section s, String name) {
        int index = cubin.sectionIndex(s.name());
        for (org.jptxas.cubin.Symbol sym : cubin.symbols()) {
            if (sym.shndx() == index && sym.symbolType() == 2 && sym.name().equals(name)) {
                return sym.binding();
            }
        }
        return org.jptxas.cubin.Symbol.STB_LOCAL;
    }

    /**
     * Internal function symbols of {@code s} and the label their {@code .size} ends at: the section's end label when
     * the symbol runs to the section end, else none (its end label is not tracked yet).
     */
    private static java.util.Map<String, String> internalSymbolEnds(Cubin cubin, Section s, String endLabel) {
        int index = cubin.sectionIndex(s.name());
        java.util.Map<String, String> out = new java.util.HashMap<>();
        for (org.jptxas.cubin.Symbol sym : cubin.symbols()) {
            if (sym.shndx() == index && sym.symbolType() == 2 && !sym.name().equals(s.functionName())) {
                out.put(sym.name(), sym.value() + sym.size() == s.size() ? endLabel : null);
            }
        }
        for (org.jptxas.cubin.Symbol sym : cubin.symbols()) { // one ending where the next begins: that one
            if (out.containsKey(sym.name()) && out.get(sym.name()) == null) {
                for (org.jptxas.cubin.Symbol next : cubin.symbols()) {
                    if (next.shndx() == index && next.symbolType() == 2 && next.value() == sym.value() + sym.size()
                            && out.containsKey(next.name())) {
                        out.put(sym.name(), next.name());
                    }
                }
            }
        }
        return out;
    }

    /**
     * nvdisasm numbers end labels after the branch labels, one per function symbol in symbol-table order (a symbol
     * ending where another begins is named by that one, its number unused): a section's end label is the number of
     * the first function symbol that runs to the section's end (a hidden kernel's own, else its last subroutine's).
     */
    private static java.util.Map<String, Integer> endLabelRanks(Cubin cubin) {
        // defined functions only: an undefined one (malloc, an extern) has no end
        List<org.jptxas.cubin.Symbol> functions = cubin.symbols().stream()
                .filter(x -> x.symbolType() == 2 && x.shndx() != org.jptxas.cubin.Symbol.SHN_UNDEF).toList();
        java.util.Map<String, Integer> ranks = new java.util.HashMap<>();
        for (Section s : cubin.textSections()) {
            int index = cubin.sectionIndex(s.name());
            for (int i = 0; i < functions.size(); i++) {
                org.jptxas.cubin.Symbol f = functions.get(i);
                if (f.shndx() == index && f.value() + f.size() == s.size()) {
                    ranks.put(s.functionName(), i);
                    break;
                }
            }
        }
        return ranks;
    }

    /** Function symbols defined inside {@code s} other than its own (internal subroutines), by offset. */
    private static java.util.Map<Long, String> symbolsIn(Cubin cubin, Section s) {
        int index = cubin.sectionIndex(s.name());
        java.util.Map<Long, String> out = new java.util.TreeMap<>();
        for (org.jptxas.cubin.Symbol sym : cubin.symbols()) {
            if (sym.shndx() == index && sym.symbolType() == 2 && !sym.name().equals(s.functionName())) {
                out.putIfAbsent(sym.value(), sym.name());
            }
        }
        return out;
    }

    private int report(int unknown) {
        if (unknown > 0) {
            err.println("jnvdisasm error   : " + unknown + " instruction(s) not in the " + "encoding tables (printed as UNKNOWN)");
            return 1;
        }
        return 0;
    }
}
