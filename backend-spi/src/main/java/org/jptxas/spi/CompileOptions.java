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
 */
public record CompileOptions(int optLevel, OptionalInt maxRegCount, boolean relocatable, boolean debug,
        boolean lineInfo, boolean verbose, boolean warnOnSpills) {
    public CompileOptions {
        if (optLevel < 0 || optLevel > 3) {
            throw new IllegalArgumentException("optimization level must be 0..3: " + optLevel);
        }
    }

    /** ptxas's defaults: -O3, executable output, no debug information. */
    public static CompileOptions defaults() {
        return new CompileOptions(3, OptionalInt.empty(), false, false, false, false, false);
    }
}
