package org.jptxas.frontend.ptx.ast;

/** {@code .version major.minor}. */
public record VersionDirective(SourcePos pos, int major, int minor) implements ModuleItem {
    /** The version as major * 10 + minor ({@code 78} for 7.8), the form version gates use. */
    public int times10() {
        return major * 10 + minor;
    }
}
