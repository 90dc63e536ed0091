package org.jptxas.frontend.ptx.ast;

/** Linking directives of module-scope symbols; {@link #NONE} when none is written. */
public enum Linkage {
    NONE(""), VISIBLE(".visible"), EXTERN(".extern"), WEAK(".weak"), COMMON(".common");

    private final String directive;

    Linkage(String directive) {
        this.directive = directive;
    }

    public String directive() {
        return directive;
    }
}
