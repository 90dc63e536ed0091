package org.jptxas.cli;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.jptxas.cli.JptxasCommand.Fatal;
import org.jptxas.ori.diag.Diagnostic;
import picocli.CommandLine.ParseResult;

/**
 * The ptxas 13 options that {@link JptxasCommand} does not declare as fields of its own: each is either handled here
 * with ptxas's meaning (its value checked with ptxas's message, ptxas's own warnings printed) or refused by name. None
 * is accepted and ignored: an option is accepted only where ptxas's documented meaning holds for jptxas's output
 * (for example {@code --split-compile}, which only sets ptxas's thread count). {@code PtxasOptionsTest} compares this
 * list, option by option, with {@code ptxas --help}.
 */
final class PtxasOptions {
    private PtxasOptions() {}

    /** One ptxas option: long and short name, and whether it takes a value. */
    record Spec(String longName, String shortName, boolean takesValue) {}

    /**
     * Options handled in {@link #apply}: values checked, meaning applied or the option refused for some values. The
     * {@code --suppress-*} options suppress messages jptxas never prints (no target it compiles for lacks doubles;
     * it compiles no mma.sp or .multicast::cluster; it prints no stack-size warning), and
     * {@code --optimize-float-atomics} permits optimizations jptxas does not make, so their meaning holds as is.
     */
    static final List<Spec> CHECKED = List.of(
            new Spec("--allow-expensive-optimizations", "-allow-expensive-optimizations", true),
            new Spec("--Ofast-compile", "-Ofc", true),
            new Spec("--split-compile", "-split-compile", true),
            new Spec("--register-usage-level", "-regUsageLevel", true),
            new Spec("--legacy-bar-warp-wide-behavior", "-legacy-bar-warp-wide-behavior", false),
            new Spec("--suppress-debug-info", "-suppress-debug-info", false),
            new Spec("--suppress-double-demote-warning", "-suppress-double-demote-warning", false),
            new Spec("--suppress-stack-size-warning", "-suppress-stack-size-warning", false),
            new Spec("--suppress-sparse-mma-advisory-info", "-suppress-sparse-mma-advisory-info", false),
            new Spec("--suppress-async-bulk-multicast-advisory-warning",
                    "-suppress-async-bulk-multicast-advisory-warning", false),
            new Spec("--warn-on-double-precision-use", "-warn-double-usage", false),
            new Spec("--warn-on-local-memory-usage", "-warn-lmem-usage", false),
            new Spec("--g-tensor-memory-access-check", "-g-tmem-access-check", false),
            new Spec("--gno-tensor-memory-access-check", "-gno-tmem-access-check", false),
            new Spec("--position-independent-code", "-pic", true),
            new Spec("--fmad", "-fmad", true),
            new Spec("--optimize-float-atomics", "-opt-fp-atomics", false),
            new Spec("--device-stack-protector", "-device-stack-protector", true),
            new Spec("--device-function-maxrregcount", "-func-maxrregcount", true),
            new Spec("--maxntid", "-maxntid", true),
            new Spec("--minnctapersm", "-minnctapersm", true),
            new Spec("--def-load-cache", "-dlcm", true),
            new Spec("--def-store-cache", "-dscm", true),
            new Spec("--force-load-cache", "-flcm", true),
            new Spec("--force-store-cache", "-fscm", true));

    /** Options that would change the output in ways jptxas does not implement; refused by name. */
    static final List<Spec> REFUSED = List.of(
            new Spec("--compile-as-tools-patch", "-astoolspatch", false),
            new Spec("--compiler-annotations", "-annotate", false),
            new Spec("--dont-merge-basicblocks", "-no-bb-merge", false),
            new Spec("--return-at-end", "-ret-end", false),
            new Spec("--disable-optimizer-constants", "-disable-optimizer-consts", false),
            new Spec("--extensible-whole-program", "-ewp", false),
            new Spec("--make-errors-visible-at-exit", "-make-errors-visible-at-exit", false),
            new Spec("--override-directive-values", "-override-directive-values", false),
            new Spec("--preserve-relocs", "-preserve-relocs", false),
            new Spec("--sanitize", "-sanitize", true),
            new Spec("--sp-bounds-check", "-sp-bounds-check", false));

    /** What the checked options asked for, beyond the diagnostics {@link #apply} prints. */
    record Effects(boolean warnLocalMemory, boolean warnDoublePrecision, boolean tensorMemoryCheck, boolean fmad,
                   boolean suppressDebugInfo, int splitCompile) {}

    /**
     * ptxas's warning for {@code --suppress-debug-info} without {@code -g} or {@code -lineinfo}, unless an input has
     * {@code .loc} (which asks for line tables as {@code -lineinfo} does; ptxas then suppresses them, silently).
     */
    static java.util.Optional<Diagnostic> suppressDebugInfoWarning(boolean suppress, boolean debugInfo, boolean anyLoc) {
        return suppress && !debugInfo && !anyLoc
                ? java.util.Optional.of(Diagnostic.warning(null, 0, "Option suppress-debug-info requires option "
                        + "device-debug or lineinfo; ignoring since latter is not specified"))
                : java.util.Optional.empty();
    }

    static Fatal refused(String option) {
        return new Fatal("Option '" + option + "' is not supported yet by jptxas");
    }

    private static Fatal refusedValue(String option, String value) {
        return new Fatal("Option '" + option + " " + value + "' is not supported yet by jptxas");
    }

    /**
     * Checks the options of {@link #CHECKED} and {@link #REFUSED} that {@code parsed} holds: a refused option or
     * value throws {@link Fatal}; ptxas's own warnings for an option are added to {@code early} (printed before the
     * inputs are read, as ptxas prints them).
     */
    static Effects apply(ParseResult parsed, boolean compileOnly, boolean maxRegCountGiven, List<Diagnostic> early) {
        for (Spec refused : REFUSED) {
            if (parsed.hasMatchedOption(refused.longName())) {
                throw refused(refused.longName());
            }
        }
        // ptxas's value checks, in ptxas's words.
        String ofc = value(parsed, "--Ofast-compile");
        if (ofc != null && !Set.of("0", "min", "mid", "max").contains(ofc)) {
            throw new Fatal("Invalid value for --Ofast-compile/-Ofc (" + ofc + "), is not 'max', 'mid', 'min', or '0'");
        }
        // --allow-expensive-optimizations is a permission (ptxas: "allow compiler to perform expensive
        // optimizations using maximum available resources"): either value holds for jptxas, which runs the same
        // passes whatever it is given, so only the value is checked. --fmad: true (the default) contracts
        // multiplies and adds without a rounding modifier into fused multiply-adds, false keeps them apart.
        bool(parsed, "--allow-expensive-optimizations");
        Boolean fmad = bool(parsed, "--fmad");
        Boolean pic = bool(parsed, "--position-independent-code");
        Boolean stackProtector = bool(parsed, "--device-stack-protector");
        String split = value(parsed, "--split-compile");
        if (split != null && !split.matches("\\d+")) {
            throw new Fatal("'" + split + "': expected a number");
        }
        String level = value(parsed, "--register-usage-level");
        if (level != null && !level.matches("-?\\d+")) {
            throw new Fatal("'" + level + "': expected a number");
        }
        cacheModifier(parsed, "--def-load-cache", "load", Set.of("ca", "cg", "cs", "lu", "cv"), early);
        cacheModifier(parsed, "--def-store-cache", "store", Set.of("wb", "cg", "cs", "wt"), early);
        cacheModifier(parsed, "--force-load-cache", "load", Set.of("ca", "cg", "cs", "lu", "cv"), early);
        cacheModifier(parsed, "--force-store-cache", "store", Set.of("wb", "cg", "cs", "wt"), early);
        if (early.stream().anyMatch(Diagnostic::isError)) {
            return null;
        }

        // Meanings. Fast compilation disables optimizations ptxas would do: jptxas has no such mode.
        if (ofc != null && !ofc.equals("0")) {
            throw refusedValue("--Ofast-compile", ofc);
        }
        // ptxas's default is position-independent code for whole programs and not for -c; jptxas writes exactly
        // that, so only the default of each mode is honoured.
        if (pic != null && pic != !compileOnly) {
            throw refusedValue("--position-independent-code", pic.toString());
        }
        if (Boolean.TRUE.equals(stackProtector)) {
            throw refusedValue("--device-stack-protector", "true");
        }
        if (level != null) {
            int n = Integer.parseInt(level);
            if (n < 0 || n > 10) {
                early.add(Diagnostic.warning(null, 0, "Value of RegUsageLevel (" + n
                        + ") is out of valid range {0..10}, option will be ignored"));
            } else if (n != 5) {
                // 5 is ptxas's default; other levels trade registers for speed in ways jptxas does not model.
                throw refusedValue("--register-usage-level", level);
            }
        }
        for (String cache : List.of("--def-load-cache", "--def-store-cache", "--force-load-cache",
                "--force-store-cache")) {
            String v = value(parsed, cache);
            if (v != null) {
                // ptxas 13 changes the code even for the PTX defaults (-dlcm=ca gives LDG.E.STRONG.SM on sm_80).
                throw refusedValue(cache, v);
            }
        }
        if (parsed.hasMatchedOption("--device-function-maxrregcount")) {
            if (compileOnly) {
                throw refused("--device-function-maxrregcount");
            }
            early.add(Diagnostic.warning(null, 0, "Command line option 'device-function-maxrregcount' not supported "
                    + "for 'whole program compilation', will be ignored"));
        }
        for (String occupancy : List.of("maxntid", "minnctapersm")) {
            if (parsed.hasMatchedOption("--" + occupancy)) {
                if (!maxRegCountGiven) {
                    throw refused("--" + occupancy);
                }
                early.add(Diagnostic.warning(null, 0, "Conflicting options -maxrregcount and -" + occupancy
                        + " specified, ignoring -" + occupancy + " option"));
            }
        }
        if (parsed.hasMatchedOption("--legacy-bar-warp-wide-behavior")) {
            // ignored for .target sm_70 and above, which is every target jptxas generates code for
            early.add(Diagnostic.warning(null, 0, "'--legacy-bar-warp-wide-behavior' is a deprecated option, It will "
                    + "be removed in future release and is not recommended"));
            early.add(Diagnostic.warning(null, 0, "Command line option '--legacy-bar-warp-wide-behavior' not "
                    + "supported for '.target sm_70', will be ignored"));
        }
        return new Effects(parsed.hasMatchedOption("--warn-on-local-memory-usage"),
                parsed.hasMatchedOption("--warn-on-double-precision-use"),
                parsed.hasMatchedOption("--g-tensor-memory-access-check")
                        || parsed.hasMatchedOption("--gno-tensor-memory-access-check"),
                fmad == null || fmad, parsed.hasMatchedOption("--suppress-debug-info"),
                // a module's functions compiled at a time: ptxas's 0 is one per processor, which jptxas also takes
                // when the option is absent (the output is the same whatever the count)
                split == null ? 0 : new java.math.BigInteger(split).min(
                        java.math.BigInteger.valueOf(Integer.MAX_VALUE)).intValue());
    }

    private static void cacheModifier(ParseResult parsed, String option, String kind, Set<String> valid,
                                      List<Diagnostic> early) {
        String v = value(parsed, option);
        if (v != null && !valid.contains(v.toLowerCase(Locale.ROOT))) {
            early.add(Diagnostic.error(null, 0, "Invalid default cache modifier on " + kind + " specified: " + v));
        }
    }

    /** The option's last value, or null when not given. */
    static String value(ParseResult parsed, String longName) {
        if (!parsed.hasMatchedOption(longName)) {
            return null;
        }
        Object v = parsed.matchedOption(longName).getValue();
        if (v instanceof List<?> list) {
            return list.isEmpty() ? null : String.valueOf(list.get(list.size() - 1));
        }
        return v == null ? null : String.valueOf(v);
    }

    private static Boolean bool(ParseResult parsed, String longName) {
        String v = value(parsed, longName);
        if (v == null) {
            return null;
        }
        if (!v.equals("true") && !v.equals("false")) {
            throw new Fatal("'" + v + "': expected true or false");
        }
        return Boolean.valueOf(v);
    }

}
