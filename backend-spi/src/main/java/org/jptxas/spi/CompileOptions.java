package org.jptxas.spi;

import java.util.OptionalInt;

/**
 * Code-generation options, as set by ptxas's command line.
 *
 * @param optLevel 0..3 ({@code -O}); ptxas's default is 3
 * @param maxRegCount {@code --maxrregcount}, empty when not given
 * @param relocatable {@code -c}: relocatable object instead of an executable cubin
 * @param debug {@code -g}
 * @param lineInfo {@code -lineinfo}
 * @param verbose {@code -v}: resource report
 * @param warnOnSpills {@code --warn-on-spills}
 * @param fmad {@code --fmad}: contract multiplies and adds into fused multiply-adds (ptxas's default, true)
 * @param suppressDebugInfo {@code --suppress-debug-info}: no line tables, not even for PTX with {@code .loc}
 * @param splitCompile {@code --split-compile}: how many of a module's functions are compiled at a time (0, the
 *        default: one per processor; 1: one after the other); the output is the same whatever it is
 * @param sassText whether the backend renders its SASS text ({@link CompiledModule#sass()}, for {@code --out-sass});
 *        when false that text is empty and the cubin the same (jptxas asks for it only with {@code --out-sass}: the
 *        listing of a large function is a few percent of its compilation)
 */
public record CompileOptions(int optLevel, OptionalInt maxRegCount, boolean relocatable, boolean debug,
        boolean lineInfo, boolean verbose, boolean warnOnSpills, boolean fmad, boolean suppressDebugInfo,
        int splitCompile, boolean sassText) {
    public CompileOptions {
        if (optLevel < 0 || optLevel > 3) {
            throw new IllegalArgumentException("optimization level must be 0..3: " + optLevel);
        }
        if (splitCompile < 0) {
            throw new IllegalArgumentException("split-compile thread count must be 0 or more: " + splitCompile);
        }
    }

    /** The options compiling a module's functions one per processor at a time. */
    public CompileOptions(int optLevel, OptionalInt maxRegCount, boolean relocatable, boolean debug,
                          boolean lineInfo, boolean verbose, boolean warnOnSpills, boolean fmad,
                          boolean suppressDebugInfo) {
        this(optLevel, maxRegCount, relocatable, debug, lineInfo, verbose, warnOnSpills, fmad, suppressDebugInfo, 0);
    }

    public CompileOptions(int optLevel, OptionalInt maxRegCount, boolean relocatable, boolean debug,
                          boolean lineInfo, boolean verbose, boolean warnOnSpills, boolean fmad,
                          boolean suppressDebugInfo, int splitCompile) {
        this(optLevel, maxRegCount, relocatable, debug, lineInfo, verbose, warnOnSpills, fmad, suppressDebugInfo,
                splitCompile, true);
    }

    /** The same options with {@code --split-compile} {@code threads}. */
    public CompileOptions withSplitCompile(int threads) {
        return new CompileOptions(optLevel, maxRegCount, relocatable, debug, lineInfo, verbose, warnOnSpills, fmad,
                suppressDebugInfo, threads, sassText);
    }

    public CompileOptions withSassText(boolean on) {
        return new CompileOptions(optLevel, maxRegCount, relocatable, debug, lineInfo, verbose, warnOnSpills, fmad,
                suppressDebugInfo, splitCompile, on);
    }

    /** The options without {@code --suppress-debug-info}. */
    public CompileOptions(int optLevel, OptionalInt maxRegCount, boolean relocatable, boolean debug,
                          boolean lineInfo, boolean verbose, boolean warnOnSpills, boolean fmad) {
        this(optLevel, maxRegCount, relocatable, debug, lineInfo, verbose, warnOnSpills, fmad, false);
    }

    /** The options with ptxas's default {@code --fmad=true}. */
    public CompileOptions(int optLevel, OptionalInt maxRegCount, boolean relocatable, boolean debug,
                          boolean lineInfo, boolean verbose, boolean warnOnSpills) {
        this(optLevel, maxRegCount, relocatable, debug, lineInfo, verbose, warnOnSpills, true);
    }

    /** The same options with {@code --fmad} set to {@code on}. */
    public CompileOptions withFmad(boolean on) {
        return new CompileOptions(optLevel, maxRegCount, relocatable, debug, lineInfo, verbose, warnOnSpills, on,
                suppressDebugInfo, splitCompile, sassText);
    }

    /** The same options compiling as {@code -g} does: device debug information, no optimization. */
    public CompileOptions withDeviceDebug() {
        return new CompileOptions(0, maxRegCount, relocatable, true, lineInfo, verbose, warnOnSpills, fmad,
                suppressDebugInfo, splitCompile, sassText);
    }

    /**
     * Whether line tables are written for a module: with {@code -lineinfo} or {@code -g}, and, as ptxas does, for
     * PTX with {@code .loc} ({@code moduleHasLoc}); never with {@code --suppress-debug-info}.
     */
    public boolean lineTables(boolean moduleHasLoc) {
        return !suppressDebugInfo && (lineInfo || debug || moduleHasLoc);
    }

    /** ptxas's defaults: -O3, executable output, no debug information. */
    public static CompileOptions defaults() {
        return new CompileOptions(3, OptionalInt.empty(), false, false, false, false, false, true, false);
    }
}
