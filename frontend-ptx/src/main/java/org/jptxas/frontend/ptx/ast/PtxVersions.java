package org.jptxas.frontend.ptx.ast;

import java.util.List;

/** The PTX ISA versions that exist (and that ptxas 13.0 accepts in {@code .version}); others are refused by name. */
public final class PtxVersions {
    private PtxVersions() {}

    public static final List<String> ALL = List.of("1.0", "1.1", "1.2", "1.3", "1.4", "1.5", "2.0", "2.1", "2.2",
            "2.3", "3.0", "3.1", "3.2", "4.0", "4.1", "4.2", "4.3", "5.0", "5.1", "6.0", "6.1", "6.2", "6.3", "6.4",
            "6.5", "7.0", "7.1", "7.2", "7.3", "7.4", "7.5", "7.6", "7.7", "7.8", "8.0", "8.1", "8.2", "8.3", "8.4",
            "8.5", "8.6", "8.7", "8.8", "9.0");

    /** The newest version, as ptxas names it in its "current version" message. */
    public static final String CURRENT = "9.0";

    public static boolean exists(int major, int minor) {
        return ALL.contains(major + "." + minor);
    }
}
