package org.jptxas.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jptxas.testing.Oracles;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every option {@code ptxas --help} (ptxas 13) documents, against what jptxas does with it: the table below says, for
 * each, that jptxas implements ptxas's meaning (checked: the output, or ptxas's own messages and exit code on the same
 * input), or refuses it by name (the exact message). An option ptxas lists that the table does not know fails the
 * test, and so does a table entry ptxas no longer lists. No option may be accepted and ignored: an accepted option
 * either changes what it means to change or is shown to leave the output as ptxas's meaning says.
 */
class PtxasOptionsTest {
    @TempDir
    static Path dir;

    static final String SAXPY = "saxpy.ptx";
    /** saxpy with {@code .target sm_80, debug} and a {@code .debug_abbrev} section. */
    static final String TARGET_DEBUG = "saxpy-target-debug.ptx";
    /** saxpy with {@code .target sm_80, debug} and no DWARF section. */
    static final String TARGET_DEBUG_WITHOUT_DWARF = "saxpy-target-debug-no-dwarf.ptx";
    /** saxpy with a {@code .debug_info} section but no {@code .debug_abbrev}. */
    static final String DWARF_INFO_ONLY = "saxpy-debug-info.ptx";

    /** What jptxas must do with one command line. */
    sealed interface Expect permits SameOutput, AsPtxas, Refused, Holds {}

    /** Accepted without a message; the cubin equals the one compiled without the option (ptxas's meaning holds). */
    record SameOutput(String why) implements Expect {}

    /** ptxas's own messages (tool name aside) and exit code, on the same input. */
    record AsPtxas() implements Expect {}

    /** Refused: exit 255 and exactly this fatal line. */
    record Refused(String message) implements Expect {}

    /** Implemented: the check holds on jptxas's run. */
    record Holds(String meaning, java.util.function.Predicate<Run> check) implements Expect {}

    /** One command line for an option, and what jptxas must do. */
    record Case(List<String> args, Expect expect) {
        static Case of(Expect e, String... args) {
            return new Case(List.of(args), e);
        }
    }

    /** A run of a tool: exit code, stdout, stderr, output file bytes (null when none was written). */
    record Run(int exitCode, String out, String err, byte[] cubin) {}

    /** Runs a tool on a command line in {@link #dir}. */
    interface Tool {
        Run run(List<String> args);
    }

    private static final Registries REGISTRIES = Registries.shared();

    static Run jptxas(List<String> args) {
        try {
            Path outFile = dir.resolve("j.cubin");
            Files.deleteIfExists(outFile);
            List<String> argv = new ArrayList<>(args);
            argv.addAll(List.of("-o", "j.cubin"));
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int rc = new JptxasCommand(new PrintWriter(out), new PrintWriter(err), Map.of(), null, dir, REGISTRIES)
                    .run(argv.toArray(String[]::new));
            return new Run(rc, out.toString(), err.toString(), Files.exists(outFile) ? Files.readAllBytes(outFile) : null);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static Run ptxas(Path ptxas, List<String> args) {
        try {
            List<String> argv = new ArrayList<>(List.of(ptxas.toString()));
            argv.addAll(args);
            argv.addAll(List.of("-o", "p.cubin"));
            Files.deleteIfExists(dir.resolve("p.cubin"));
            Process p = new ProcessBuilder(argv).directory(dir.toFile()).start();
            p.getOutputStream().close();
            byte[] out = p.getInputStream().readAllBytes();
            byte[] err = p.getErrorStream().readAllBytes();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError("ptxas timed out on " + args);
            }
            return new Run(p.exitValue(), new String(out, StandardCharsets.UTF_8),
                    new String(err, StandardCharsets.UTF_8), null);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** ptxas's messages with jptxas's name, without the timing lines ptxas adds. */
    static List<String> messages(String text, String tool) {
        return text.lines().filter(l -> !l.contains("Compile time ="))
                .map(l -> l.startsWith(tool + " ") ? "TOOL" + l.substring(tool.length()) : l).toList();
    }

    static Case same(String why, String... args) {
        return Case.of(new SameOutput(why), args);
    }

    static Case asPtxas(String... args) {
        return Case.of(new AsPtxas(), args);
    }

    static Case refused(String message, String... args) {
        return Case.of(new Refused(message), args);
    }

    static Case holds(String meaning, java.util.function.Predicate<Run> check, String... args) {
        return Case.of(new Holds(meaning, check), args);
    }

    static String notYet(String option) {
        return "Option '" + option + "' is not supported yet by jptxas";
    }

    /** A listing jptxas wrote with --out-sass in the test folder. */
    private static String sass(String name) {
        try {
            return Files.readString(dir.resolve(name));
        } catch (IOException e) {
            return "";
        }
    }

    /** The SASS listing jptxas writes for the command line {@code args}. */
    private static String sassOf(String... args) {
        List<String> argv = new ArrayList<>(List.of(args));
        argv.addAll(List.of("--out-sass", "other.sass"));
        jptxas(argv);
        return sass("other.sass");
    }

    private static boolean compiled(Run r) {
        return r.exitCode() == 0 && r.cubin() != null && r.err().isEmpty();
    }

    /** The table: every ptxas 13 option, by long name, with the command lines that show what jptxas does. */
    static Map<String, List<Case>> table() {
        String arch = "-arch=sm_80";
        Map<String, List<Case>> t = new LinkedHashMap<>();
        t.put("--Ofast-compile", List.of(same("0 is ptxas's default (no fast compile)", arch, "-Ofc", "0", SAXPY),
                refused(notYet("--Ofast-compile max"), arch, "-Ofc", "max", SAXPY),
                refused(notYet("--Ofast-compile min"), arch, "-Ofc=min", SAXPY),
                asPtxas(arch, "-Ofc", "bogus", SAXPY)));
        t.put("--allow-expensive-optimizations", List.of(
                same("a permission; jptxas runs the same passes", arch, "--allow-expensive-optimizations", "true", SAXPY),
                same("a permission; jptxas runs the same passes", arch, "-allow-expensive-optimizations=false", SAXPY),
                asPtxas(arch, "--allow-expensive-optimizations", SAXPY)));
        t.put("--compile-as-tools-patch", List.of(refused(notYet("--compile-as-tools-patch"), arch, "-astoolspatch", SAXPY)));
        t.put("--compile-only", List.of(holds("a relocatable object (ET_REL)",
                r -> compiled(r) && r.cubin()[16] == 1, arch, "-c", SAXPY)));
        t.put("--compiler-annotations", List.of(refused(notYet("--compiler-annotations"), arch, "-annotate", SAXPY)));
        t.put("--def-load-cache", List.of(refused(notYet("--def-load-cache ca"), arch, "-dlcm=ca", SAXPY),
                refused(notYet("--def-load-cache cg"), arch, "-dlcm", "cg", SAXPY), asPtxas(arch, "-dlcm=xx", SAXPY)));
        t.put("--def-store-cache", List.of(refused(notYet("--def-store-cache wb"), arch, "-dscm=wb", SAXPY),
                asPtxas(arch, "-dscm=xx", SAXPY)));
        t.put("--device-debug", List.of(holds("the line tables and -O0's code (PENDING (issue 21): .debug_info and"
                + " .debug_abbrev from the PTX's own DWARF sections)", r -> r.exitCode() == 0
                && lineTables(r.cubin()) && sass("g.sass").equals(sassOf(arch, "-O0", SAXPY))
                && !sass("g.sass").equals(sassOf(arch, "-O3", SAXPY)), arch, "-g", "--out-sass", "g.sass", SAXPY), asPtxas(arch, "-g", SAXPY),
                asPtxas(arch, "-g", "-O1", SAXPY), asPtxas(arch, "-g", "-O0", SAXPY),
                asPtxas(arch, "-g", "-lineinfo", SAXPY), asPtxas(arch, "-g", DWARF_INFO_ONLY),
                // a .target listing debug is compiled as with -g, and PTX without DWARF is then an error
                holds("-g's cubin for a .target debug (unoptimized code)", r -> r.exitCode() == 0
                        && sameApartFromRecordedOptions(r.cubin(), jptxas(List.of(arch, "-g", TARGET_DEBUG)).cubin())
                        && !sass("td.sass").equals(sassOf(arch, "-O3", SAXPY)), arch, "--out-sass", "td.sass",
                        TARGET_DEBUG),
                asPtxas(arch, TARGET_DEBUG), asPtxas(arch, "-lineinfo", TARGET_DEBUG), asPtxas(arch, "-O1", TARGET_DEBUG),
                asPtxas(arch, "-O0", TARGET_DEBUG), asPtxas(arch, TARGET_DEBUG_WITHOUT_DWARF),
                asPtxas(arch, "-g", TARGET_DEBUG_WITHOUT_DWARF)));
        t.put("--device-function-maxrregcount", List.of(asPtxas(arch, "-func-maxrregcount", "32", SAXPY),
                refused(notYet("--device-function-maxrregcount"), arch, "-c", "-func-maxrregcount", "32", SAXPY)));
        t.put("--device-stack-protector", List.of(same("false is the default", arch, "-device-stack-protector=false",
                SAXPY), refused(notYet("--device-stack-protector true"), arch, "-device-stack-protector", "true", SAXPY),
                asPtxas(arch, "-device-stack-protector", "maybe", SAXPY)));
        t.put("--disable-optimizer-constants",
                List.of(refused(notYet("--disable-optimizer-constants"), arch, "-disable-optimizer-consts", SAXPY)));
        t.put("--disable-warnings", List.of(holds("no warnings", r -> compiled(r), arch, "-w",
                "-legacy-bar-warp-wide-behavior", SAXPY)));
        t.put("--dont-merge-basicblocks", List.of(refused(notYet("--dont-merge-basicblocks"), arch, "-no-bb-merge", SAXPY)));
        t.put("--entry", List.of(holds("only the named entries", r -> compiled(r) && contains(r.cubin(), "second")
                && !contains(r.cubin(), "first"), arch, "-e", "second", "two.ptx"),
                asPtxas(arch, "-e", "nosuch", SAXPY)));
        t.put("--extensible-whole-program", List.of(refused(notYet("--extensible-whole-program"), arch, "-ewp", SAXPY)));
        t.put("--fmad", List.of(
                holds("false keeps mul and add apart (FMUL, FADD)", r -> compiled(r) && sass("fmad-false.sass")
                        .matches("(?s).*FMUL.*FADD.*") && !sass("fmad-false.sass").contains("FFMA"), arch,
                        "--fmad=false", "--out-sass", "fmad-false.sass", "muladd.ptx"),
                holds("true (the default) contracts them into FFMA", r -> compiled(r)
                        && sass("fmad-true.sass").contains("FFMA") && !sass("fmad-true.sass").contains("FMUL"), arch,
                        "-fmad", "true", "--out-sass", "fmad-true.sass", "muladd.ptx"),
                asPtxas(arch, "--fmad=maybe", SAXPY)));
        t.put("--force-load-cache", List.of(refused(notYet("--force-load-cache cg"), arch, "-flcm=cg", SAXPY),
                asPtxas(arch, "-flcm=xx", SAXPY)));
        t.put("--force-store-cache", List.of(refused(notYet("--force-store-cache wt"), arch, "-fscm=wt", SAXPY),
                asPtxas(arch, "-fscm=xx", SAXPY)));
        t.put("--g-tensor-memory-access-check", List.of(asPtxas(arch, "-g-tmem-access-check", SAXPY)));
        t.put("--gno-tensor-memory-access-check", List.of(asPtxas(arch, "--gno-tensor-memory-access-check", SAXPY)));
        t.put("--generate-line-info", List.of(holds(".debug_line, .nv_debug_line_sass and .nv_debug_ptx_txt (even for"
                + " PTX without .loc, as ptxas writes them)", r -> compiled(r) && lineTables(r.cubin()), arch,
                "-lineinfo", SAXPY)));
        t.put("--gpu-name", List.of(holds("the target", r -> compiled(r) && (r.cubin()[49] & 0xff) == 90,
                "--gpu-name", "sm_90", SAXPY), asPtxas("--gpu-name=sm_99", SAXPY)));
        t.put("--help", List.of(holds("the usage", r -> r.exitCode() == 0 && r.out().contains("--gpu-name"), "-h")));
        t.put("--input-as-string", List.of(asPtxas(arch, "-ias", BAD_STRING)));
        t.put("--legacy-bar-warp-wide-behavior", List.of(asPtxas(arch, "-legacy-bar-warp-wide-behavior", SAXPY)));
        t.put("--list-version", List.of(holds("the PTX ISA versions", r -> r.exitCode() == 0
                && r.out().startsWith("1.0\n") && r.out().contains("\n9.0\n9.1\n"), "--list-version")));
        t.put("--machine", List.of(same("64 is the only value", arch, "-m", "64", SAXPY), asPtxas(arch, "-m32", SAXPY)));
        t.put("--make-errors-visible-at-exit",
                List.of(refused(notYet("--make-errors-visible-at-exit"), arch, "-make-errors-visible-at-exit", SAXPY)));
        t.put("--maxntid", List.of(asPtxas(arch, "-maxntid", "128", "-maxrregcount", "32", SAXPY),
                refused(notYet("--maxntid"), arch, "-maxntid", "128", SAXPY)));
        t.put("--maxrregcount", List.of(asPtxas(arch, "-maxrregcount", "4", SAXPY),
                asPtxas(arch, "-maxrregcount", "300", SAXPY), asPtxas(arch, "-maxrregcount", "0", SAXPY),
                asPtxas(arch, "--maxrregcount=-3", SAXPY), asPtxas(arch, "--maxrregcount=abc", SAXPY)));
        t.put("--minnctapersm", List.of(asPtxas(arch, "-minnctapersm", "2", "-maxrregcount", "32", SAXPY),
                refused(notYet("--minnctapersm"), arch, "-minnctapersm", "2", SAXPY)));
        t.put("--opt-level", List.of(holds("unoptimized code differs", r -> compiled(r), arch, "--opt-level", "0", SAXPY),
                asPtxas(arch, "-Ox", SAXPY)));
        t.put("--optimize-float-atomics", List.of(same("a permission for optimizations jptxas does not make", arch,
                "-opt-fp-atomics", SAXPY)));
        t.put("--options-file", List.of(holds("options read from the file", r -> compiled(r)
                && (r.cubin()[49] & 0xff) == 86, "-optf", "opts.txt", SAXPY)));
        t.put("--output-file", List.of(holds("the output file", r -> compiled(r), arch, SAXPY)));
        t.put("--override-directive-values",
                List.of(refused(notYet("--override-directive-values"), arch, "-override-directive-values", SAXPY)));
        t.put("--position-independent-code", List.of(same("whole programs are position independent", arch,
                "-pic=true", SAXPY), refused(notYet("--position-independent-code false"), arch, "-pic", "false", SAXPY),
                asPtxas(arch, "-pic=maybe", SAXPY)));
        t.put("--preserve-relocs", List.of(refused(notYet("--preserve-relocs"), arch, "-preserve-relocs", SAXPY)));
        t.put("--register-usage-level", List.of(same("5 is the default level", arch, "-regUsageLevel", "5", SAXPY),
                asPtxas(arch, "-regUsageLevel", "11", SAXPY),
                refused(notYet("--register-usage-level 2"), arch, "-regUsageLevel=2", SAXPY)));
        t.put("--return-at-end", List.of(refused(notYet("--return-at-end"), arch, "-ret-end", SAXPY)));
        t.put("--sanitize", List.of(refused(notYet("--sanitize"), arch, "-sanitize", "memcheck", SAXPY)));
        t.put("--sp-bounds-check", List.of(refused(notYet("--sp-bounds-check"), arch, "-sp-bounds-check", SAXPY)));
        t.put("--split-compile", List.of(same("only ptxas's thread count", arch, "-split-compile", "4", SAXPY),
                asPtxas(arch, "-split-compile", "x", SAXPY)));
        t.put("--suppress-async-bulk-multicast-advisory-warning", List.of(same("jptxas prints no such advisory", arch,
                "-suppress-async-bulk-multicast-advisory-warning", SAXPY)));
        t.put("--suppress-debug-info", List.of(asPtxas(arch, "-suppress-debug-info", SAXPY),
                same("drops the line tables -lineinfo asks for", arch, "-lineinfo", "-suppress-debug-info", SAXPY)));
        t.put("--suppress-double-demote-warning", List.of(same("every target jptxas compiles for has doubles", arch,
                "-suppress-double-demote-warning", SAXPY)));
        t.put("--suppress-sparse-mma-advisory-info", List.of(same("jptxas compiles no mma.sp", arch,
                "-suppress-sparse-mma-advisory-info", SAXPY)));
        t.put("--suppress-stack-size-warning", List.of(same("jptxas prints no stack-size warning", arch,
                "-suppress-stack-size-warning", SAXPY)));
        t.put("--verbose", List.of(holds("the resource report", r -> r.exitCode() == 0
                && r.err().contains("info    : Used 10 registers"), arch, "-v", SAXPY)));
        t.put("--version", List.of(holds("names jptxas and the ptxas release", r -> r.exitCode() == 0
                && r.out().startsWith("jptxas: ") && r.out().contains("release 13.0, V13.0.88"), "--version")));
        t.put("--warn-on-double-precision-use", List.of(asPtxas(arch, "-warn-double-usage", "dbl.ptx")));
        t.put("--warn-on-local-memory-usage", List.of(asPtxas(arch, "-warn-lmem-usage", "dbl.ptx"),
                asPtxas(arch, "-warn-lmem-usage", SAXPY)));
        t.put("--warn-on-spills", List.of(asPtxas(arch, "--warn-on-spills", SAXPY),
                holds("ptxas's spill warning (its wording checked against ptxas in spillWarningIsPtxasWording)",
                        r -> r.exitCode() == 0 && r.err().matches("(?s)jptxas warning : Registers are spilled to local "
                                + "memory in function 'spill', \\d+ bytes spill stores, \\d+ bytes spill loads\n.*"),
                        arch, "-maxrregcount", "32", "--warn-on-spills", "spill.ptx")));
        t.put("--warning-as-error", List.of(holds("warnings are errors", r -> r.exitCode() == 255
                && r.err().contains("error   : Option suppress-debug-info requires"), arch, "-Werror",
                "-suppress-debug-info", SAXPY)));
        return t;
    }

    static final String BAD_STRING = ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n"
            + ".reg .b32 %r1;\nldx.u32 %r1, [0];\nret;\n}\n";

    /** Whether the cubin carries ptxas's three line-table sections. */
    private static boolean lineTables(byte[] cubin) {
        return contains(cubin, ".debug_line") && contains(cubin, ".nv_debug_line_sass")
                && contains(cubin, ".nv_debug_ptx_txt");
    }

    private static boolean contains(byte[] bytes, String s) {
        return new String(bytes, StandardCharsets.ISO_8859_1).contains(s);
    }

    /** One ptxas --help option: long and short name. */
    record HelpOption(String longName, String shortName) {}

    private static final Pattern HELP_LINE = Pattern.compile("^(--[A-Za-z][\\w-]*).*\\((-[\\w-]+)\\)\\s*$");

    static List<HelpOption> helpOptions(String help) {
        List<HelpOption> options = new ArrayList<>();
        for (String line : help.lines().toList()) {
            Matcher m = HELP_LINE.matcher(line);
            if (m.matches()) {
                options.add(new HelpOption(m.group(1), m.group(2)));
            }
        }
        return options;
    }

    /**
     * The comparison: every option of {@code help} must be in {@code table} and every table entry in {@code help};
     * every case must do what it says. Returns the problems, one line each (none: the test passes).
     */
    static List<String> compare(List<HelpOption> help, Map<String, List<Case>> table, Tool jptxas, Tool ptxas) {
        List<String> problems = new ArrayList<>();
        if (help.isEmpty()) {
            problems.add("ptxas --help listed no option");
        }
        Set<String> listed = new TreeSet<>();
        for (HelpOption o : help) {
            listed.add(o.longName());
            if (!table.containsKey(o.longName())) {
                problems.add(o.longName() + " (" + o.shortName() + "): ptxas documents it, the table does not know it");
            }
        }
        for (var e : table.entrySet()) {
            if (!listed.contains(e.getKey())) {
                problems.add(e.getKey() + ": in the table, but ptxas --help no longer lists it (stale)");
            }
            if (e.getValue().isEmpty()) {
                problems.add(e.getKey() + ": no case shows what jptxas does with it");
            }
            for (Case c : e.getValue()) {
                String problem = check(c, jptxas, ptxas);
                if (problem != null) {
                    problems.add(e.getKey() + " " + c.args() + ": " + problem);
                }
            }
        }
        return problems;
    }

    /**
     * Whether two cubins are the same but for the option string in the tool note, where ptxas too records options
     * that change nothing else (-lineinfo without line information, -suppress-debug-info): every other section's
     * bytes, in the same order.
     */
    static boolean sameApartFromRecordedOptions(byte[] a, byte[] b) {
        if (a == null || b == null) {
            return a == b;
        }
        if (Arrays.equals(a, b)) {
            return true;
        }
        var x = org.jptxas.cubin.Cubin.read(a).sections();
        var y = org.jptxas.cubin.Cubin.read(b).sections();
        if (x.size() != y.size()) {
            return false;
        }
        for (int i = 0; i < x.size(); i++) {
            if (!x.get(i).name().equals(y.get(i).name())) {
                return false;
            }
            if (!x.get(i).name().equals(".note.nv.tkinfo") && !Arrays.equals(x.get(i).data(), y.get(i).data())) {
                return false;
            }
        }
        return true;
    }

    private static String check(Case c, Tool jptxas, Tool ptxas) {
        Run j = jptxas.run(c.args());
        Expect expect = c.expect();
        if (expect instanceof SameOutput s) {
            if (!compiled(j)) {
                return "expected accepted silently (" + s.why() + "), got exit " + j.exitCode() + ": " + j.err();
            }
            List<String> without = new ArrayList<>();
            for (String a : c.args()) {
                if (a.startsWith("-arch") || a.endsWith(".ptx")) {
                    without.add(a);
                }
            }
            Run base = jptxas.run(without);
            if (!sameApartFromRecordedOptions(base.cubin(), j.cubin())) {
                return "the option changed the output, but the table says it does not (" + s.why() + ")";
            }
        } else if (expect instanceof AsPtxas) {
            Run p = ptxas.run(c.args());
            List<String> want = messages(p.err() + p.out(), "ptxas");
            List<String> got = messages(j.err() + j.out(), "jptxas");
            if (p.exitCode() != j.exitCode() || !want.equals(got)) {
                return "ptxas: exit " + p.exitCode() + " " + want + "; jptxas: exit " + j.exitCode() + " " + got;
            }
        } else if (expect instanceof Refused r) {
            String want = "jptxas fatal   : " + r.message() + System.lineSeparator();
            if (j.exitCode() != 255 || !j.err().equals(want) || j.cubin() != null) {
                return "expected refusal '" + r.message() + "', got exit " + j.exitCode() + ": " + j.err();
            }
        } else if (expect instanceof Holds h && !h.check().test(j)) {
            return "expected: " + h.meaning() + "; got exit " + j.exitCode() + ", out " + j.out() + ", err " + j.err();
        }
        return null;
    }

    @BeforeAll
    static void inputs() throws IOException {
        Files.copy(Path.of("../examples/saxpy.ptx"), dir.resolve(SAXPY));
        String saxpy = Files.readString(dir.resolve(SAXPY));
        String debugTarget = saxpy.replace(".target sm_75", ".target sm_80, debug");
        Files.writeString(dir.resolve(TARGET_DEBUG), debugTarget + "\t.section\t.debug_abbrev\n\t{\n.b8 0\n\t}\n");
        Files.writeString(dir.resolve(TARGET_DEBUG_WITHOUT_DWARF), debugTarget);
        Files.writeString(dir.resolve(DWARF_INFO_ONLY), saxpy + "\t.section\t.debug_info\n\t{\n.b8 0\n\t}\n");
        Files.writeString(dir.resolve("opts.txt"), "-arch sm_86\n");
        Files.writeString(dir.resolve("two.ptx"), ".version 8.0\n.target sm_80\n.address_size 64\n"
                + ".visible .entry first(.param .u64 p)\n{\nret;\n}\n.visible .entry second(.param .u64 p)\n{\nret;\n}\n");
        Files.writeString(dir.resolve("dbl.ptx"), String.join("\n", ".version 8.0", ".target sm_80",
                ".address_size 64", ".visible .entry dbl(.param .u64 p)", "{", "  .reg .f64 %d<3>;",
                "  .reg .b64 %rd<4>;", "  .local .align 8 .b8 buf[64];", "  ld.param.u64 %rd1, [p];",
                "  ld.global.f64 %d1, [%rd1];", "  add.f64 %d2, %d1, %d1;", "  mov.u64 %rd3, buf;",
                "  st.local.f64 [%rd3], %d2;", "  ld.local.f64 %d1, [%rd3];", "  st.global.f64 [%rd1], %d1;", "  ret;",
                "}", ""));
        Files.writeString(dir.resolve("muladd.ptx"), String.join("\n", ".version 8.0", ".target sm_80",
                ".address_size 64", ".visible .entry muladd(.param .u64 p, .param .f32 x, .param .f32 y)", "{",
                "  .reg .f32 %f<6>;", "  .reg .b64 %rd<2>;", "  ld.param.u64 %rd1, [p];", "  ld.param.f32 %f1, [x];",
                "  ld.param.f32 %f2, [y];", "  ld.global.f32 %f3, [%rd1];", "  mul.f32 %f4, %f3, %f1;",
                "  add.f32 %f5, %f4, %f2;", "  st.global.f32 [%rd1], %f5;", "  ret;", "}", ""));
        Files.writeString(dir.resolve("spill.ptx"), spillKernel(false, 48));
        Files.writeString(dir.resolve("spill-volatile.ptx"), spillKernel(true, 64));
    }

    /** A kernel with {@code n} loaded values live at once (volatile loads: ptxas cannot reorder them away). */
    static String spillKernel(boolean volatileLoads, int n) {
        StringBuilder b = new StringBuilder(".version 8.0\n.target sm_80\n.address_size 64\n"
                + ".visible .entry spill(.param .u64 p)\n{\n.reg .f32 %f<130>;\n.reg .b64 %rd<4>;\n"
                + "ld.param.u64 %rd1, [p];\ncvta.to.global.u64 %rd2, %rd1;\n");
        for (int i = 1; i <= n; i++) {
            b.append(volatileLoads ? "ld.volatile" : "ld").append(".global.f32 %f").append(i).append(", [%rd2+")
                    .append(i * 4).append("];\n");
        }
        b.append("mov.f32 %f100, 0f00000000;\n");
        for (int i = n; i >= 1; i--) {
            b.append("mul.rn.f32 %f100, %f100, %f").append(i).append(";\nst.global.f32 [%rd2+").append(i * 4 + 1000)
                    .append("], %f100;\n");
        }
        return b.append("ret;\n}\n").toString();
    }

    @Test
    void everyPtxasOptionIsImplementedOrRefusedByName() throws Exception {
        Path ptxas = Oracles.assumePtxas13();
        Run help = ptxas(ptxas, List.of("--help"));
        List<HelpOption> options = helpOptions(help.out() + help.err());
        List<String> problems = compare(options, table(), PtxasOptionsTest::jptxas, args -> ptxas(ptxas, args));
        assertEquals(List.of(), problems, String.join("\n", problems));
        assertTrue(options.size() >= 50, "ptxas 13 documents 52 options; listed " + options.size());
    }

    @Test
    void spillWarningIsPtxasWording() {
        // ptxas spills on this kernel (volatile loads keep 64 values live); its line is the template for jptxas's.
        Path ptxas = Oracles.assumePtxas13();
        Run p = ptxas(ptxas, List.of("-arch=sm_80", "-maxrregcount", "24", "--warn-on-spills", "-warn-lmem-usage",
                "spill-volatile.ptx"));
        Run j = jptxas(List.of("-arch=sm_80", "-maxrregcount", "32", "--warn-on-spills", "-warn-lmem-usage", "spill.ptx"));
        assertEquals(0, p.exitCode(), p.err());
        assertEquals(0, j.exitCode(), j.err());
        List<String> want = p.err().lines().filter(l -> l.contains("warning")).map(PtxasOptionsTest::template).toList();
        List<String> got = j.err().lines().filter(l -> l.contains("warning")).map(PtxasOptionsTest::template).toList();
        assertEquals(List.of("TOOL warning : Local memory used for function 'spill', size of stack frame: N bytes",
                "TOOL warning : Registers are spilled to local memory in function 'spill', N bytes spill stores, N bytes "
                        + "spill loads"), want, "ptxas's wording");
        assertEquals(want, got, "jptxas's lines have ptxas's wording");
    }

    private static String template(String line) {
        return line.replaceFirst("^j?ptxas ", "TOOL ").replaceAll("\\b\\d+\\b", "N");
    }

    @Test
    void registerLimitAdjustmentIsPtxasWording() {
        Run j = jptxas(List.of("-arch=sm_80", "-maxrregcount", "8", SAXPY));
        assertEquals(0, j.exitCode());
        assertEquals("jptxas warning : For profile sm_80 adjusting per thread register count of 8 to lower bound of 24"
                + System.lineSeparator(), j.err());
    }

    // ---- planted faults: the comparison fails on each

    private static final List<HelpOption> SMALL_HELP = List.of(new HelpOption("--disable-warnings", "-w"),
            new HelpOption("--sanitize", "-sanitize"));

    private static Map<String, List<Case>> smallTable() {
        Map<String, List<Case>> t = new LinkedHashMap<>();
        t.put("--disable-warnings", List.of(holds("exit 0", r -> r.exitCode() == 0, "-w")));
        t.put("--sanitize", List.of(refused(notYet("--sanitize"), "-sanitize", "memcheck")));
        return t;
    }

    private static final Tool FAKE_JPTXAS = args -> args.contains("-sanitize")
            ? new Run(255, "", "jptxas fatal   : " + notYet("--sanitize") + System.lineSeparator(), null)
            : new Run(0, "", "", new byte[] {1});

    @Test
    void theComparisonPassesOnAConsistentTable() {
        assertEquals(List.of(), compare(SMALL_HELP, smallTable(), FAKE_JPTXAS, args -> null));
    }

    @Test
    void plantedOptionTheTableDoesNotKnowFails() {
        List<HelpOption> help = new ArrayList<>(SMALL_HELP);
        help.add(new HelpOption("--new-in-ptxas-14", "-new"));
        List<String> problems = compare(help, smallTable(), FAKE_JPTXAS, args -> null);
        assertEquals(1, problems.size(), problems.toString());
        assertTrue(problems.get(0).startsWith("--new-in-ptxas-14 (-new): ptxas documents it"), problems.get(0));
    }

    @Test
    void plantedOptionAcceptedAndIgnoredFails() {
        // a jptxas that accepts --sanitize silently: the table's refusal no longer holds
        Tool lenient = args -> new Run(0, "", "", new byte[] {1});
        List<String> problems = compare(SMALL_HELP, smallTable(), lenient, args -> null);
        assertEquals(1, problems.size(), problems.toString());
        assertTrue(problems.get(0).contains("expected refusal"), problems.get(0));
    }

    @Test
    void plantedStaleEntryAndEmptyHelpFail() {
        assertFalse(compare(List.of(), smallTable(), FAKE_JPTXAS, args -> null).isEmpty());
        List<String> problems = compare(SMALL_HELP.subList(0, 1), smallTable(), FAKE_JPTXAS, args -> null);
        assertTrue(problems.stream().anyMatch(p -> p.startsWith("--sanitize: in the table, but ptxas --help no longer")),
                problems.toString());
    }

    @Test
    void plantedMessageDifferenceFails() {
        Map<String, List<Case>> t = smallTable();
        t.put("--disable-warnings", List.of(asPtxas("-w")));
        Tool ptxas = args -> new Run(0, "", "ptxas warning : something\n", null);
        List<String> problems = compare(SMALL_HELP, t, FAKE_JPTXAS, ptxas);
        assertEquals(1, problems.size(), problems.toString());
        assertTrue(problems.get(0).contains("ptxas: exit 0 [TOOL warning : something]"), problems.get(0));
    }
}
