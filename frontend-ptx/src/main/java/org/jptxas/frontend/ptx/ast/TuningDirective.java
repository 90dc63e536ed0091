package org.jptxas.frontend.ptx.ast;

import java.util.List;
import java.util.Optional;

/** A directive between a function's parameters and its body: {@code .maxntid 256, 1, 1}, {@code .noreturn}, ... */
public record TuningDirective(SourcePos pos, Kind kind, List<Long> values) implements Node {
    public TuningDirective {
        values = List.copyOf(values);
    }

    public enum Kind {
        MAXNREG(".maxnreg"), MAXNTID(".maxntid"), REQNTID(".reqntid"), MINNCTAPERSM(".minnctapersm"),
        MAXNCTAPERSM(".maxnctapersm"), EXPLICITCLUSTER(".explicitcluster"),
        REQNCTAPERCLUSTER(".reqnctapercluster"), MAXCLUSTERRANK(".maxclusterrank"),
        BLOCKSAREACLUSTERS(".blocksareclusters"), NORETURN(".noreturn"), ABI_PRESERVE(".abi_preserve"),
        ABI_PRESERVE_CONTROL(".abi_preserve_control"), PRAGMA(".pragma");

        private final String directive;

        Kind(String directive) {
            this.directive = directive;
        }

        public String directive() {
            return directive;
        }

        public static Optional<Kind> fromDirective(String d) {
            for (Kind k : values()) {
                if (k.directive.equals(d)) {
                    return Optional.of(k);
                }
            }
            return Optional.empty();
        }
    }
}
